package zklock

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// A znode left behind holds its lock for as long as the shared, kept-alive
// session lives: after a server restart or a partition every attempt on
// that key would be busy for the rest of the run. So, as Curator does, a
// create is protected (its name carries a random id, found again when the
// reply was lost) and a delete is guaranteed (retried in the background
// until confirmed).

// create makes our ephemeral sequential znode under dir, creating the
// parents on first use: the prefix persistent, the lock's node a container
// (the server deletes it once empty, so fresh keys do not pile up). When
// the server may have created it without our hearing, the node is looked
// up by its id; failing that it is deleted in the background.
func (l *Locker) create(dir string) (string, error) {
	var id [16]byte
	_, _ = rand.Read(id[:])
	prefix := "_c_" + hex.EncodeToString(id[:]) + "-"
	var err error
	for range 3 {
		var node string
		node, err = l.conn.Create(dir+"/"+prefix+"lock-", nil, zk.FlagEphemeralSequential, l.acl)
		switch {
		case err == nil:
			return node, nil
		case errors.Is(err, zk.ErrNoNode):
			// The container may also have been reaped between our create
			// and the server's check: create it (again) and retry.
			if _, err := l.conn.Create(l.cfg.Prefix, nil, zk.FlagPersistent, l.acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return "", err
			}
			if _, err := l.conn.CreateContainer(dir, nil, zk.FlagContainer, l.acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return "", err
			}
			continue
		case errors.Is(err, zk.ErrConnectionClosed):
			if node, ok := l.find(dir, prefix); ok {
				return node, nil
			}
		}
		if retriable(err) {
			l.retry(func() error { return l.deleteByPrefix(dir, prefix) })
		}
		return "", err
	}
	return "", err
}

// find looks for the child of dir named with prefix.
func (l *Locker) find(dir, prefix string) (string, bool) {
	children, _, err := l.conn.Children(dir)
	if err != nil {
		return "", false
	}
	for _, c := range children {
		if strings.HasPrefix(c, prefix) {
			return dir + "/" + c, true
		}
	}
	return "", false
}

// deleteByPrefix deletes dir's child named with prefix, if there is one.
func (l *Locker) deleteByPrefix(dir, prefix string) error {
	children, _, err := l.conn.Children(dir)
	if errors.Is(err, zk.ErrNoNode) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, c := range children {
		if strings.HasPrefix(c, prefix) {
			if err := l.conn.Delete(dir+"/"+c, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
				return err
			}
		}
	}
	return nil
}

// drop deletes our znode after a failed attempt.
func (l *Locker) drop(node string) { _ = l.guaranteedDelete(node) }

// guaranteedDelete deletes node; when the server cannot be reached it keeps
// retrying in the background. The first try's error is returned (ErrNoNode:
// the node was already gone).
func (l *Locker) guaranteedDelete(node string) error {
	err := l.conn.Delete(node, -1)
	if retriable(err) {
		l.retry(func() error {
			if err := l.conn.Delete(node, -1); !errors.Is(err, zk.ErrNoNode) {
				return err
			}
			return nil
		})
	}
	return err
}

// retry runs fn in the background, with backoff, until it succeeds, fails
// for good, or the Locker closes.
func (l *Locker) retry(fn func() error) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for d := 10 * time.Millisecond; ; d = min(2*d, time.Second) {
			t := time.NewTimer(d)
			select {
			case <-l.closed:
				t.Stop()
				return
			case <-t.C:
			}
			if err := fn(); err == nil || !retriable(err) {
				return
			}
		}
	}()
}

// retriable: the request may not have reached the server, or its reply
// not us.
func retriable(err error) bool {
	return errors.Is(err, zk.ErrNoServer) || errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrSessionMoved)
}
