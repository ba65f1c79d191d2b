package zklock

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/drivers"
)

// Locker takes ZooKeeper locks over one session, shared by every worker
// (as one Curator client serves many InterProcessMutexes).
type Locker struct {
	cfg  Config
	conn *zk.Conn
	acl  []zk.ACL // of every node created
	// closed ends the background deletes (guaranteedDelete) on Close.
	closed chan struct{}
	wg     sync.WaitGroup
}

var _ drivers.Locker = (*Locker)(nil)

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

// New connects to servers (host:port) and waits for a session.
func New(ctx context.Context, servers []string, cfg Config) (*Locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return nil, errors.New("zklock: no servers")
	}
	dial := zk.WithDialer(net.DialTimeout)
	if cfg.TLS != nil {
		dial = zk.WithDialer(tlsDialer(cfg.TLS))
	}
	conn, events, err := zk.Connect(servers, cfg.SessionTimeout, zk.WithLogger(nopLogger{}), dial)
	if err != nil {
		return nil, fmt.Errorf("zklock: connect %v: %w", servers, err)
	}
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				go drain(events)
				acl, err := authenticate(conn, cfg.Digest)
				if err != nil {
					conn.Close()
					return nil, fmt.Errorf("zklock: %v: %w", servers, err)
				}
				return &Locker{cfg: cfg, conn: conn, acl: acl, closed: make(chan struct{})}, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("zklock: no session with %v: %w", servers, ctx.Err())
		}
	}
}

// tlsDialer dials a server over TLS with c.
func tlsDialer(c *tls.Config) zk.Dialer {
	return func(network, address string, timeout time.Duration) (net.Conn, error) {
		return tls.DialWithDialer(&net.Dialer{Timeout: timeout}, network, address, c)
	}
}

// authenticate adds digest's credentials to the session (the client
// sends them again on every reconnect) and is the ACL of nodes it creates:
// that user's alone, or anyone's without credentials.
func authenticate(conn *zk.Conn, digest string) ([]zk.ACL, error) {
	if digest == "" {
		return zk.WorldACL(zk.PermAll), nil
	}
	user, password, ok := strings.Cut(digest, ":")
	if !ok {
		return nil, errors.New("digest credentials: want user:password")
	}
	if err := conn.AddAuth("digest", []byte(digest)); err != nil {
		return nil, fmt.Errorf("digest auth: %w", err)
	}
	return zk.DigestACL(zk.PermAll, user, password), nil
}

// drain keeps the session event channel from filling up.
func drain(events <-chan zk.Event) {
	for range events {
	}
}

// SessionID is the session's id (tests, scenarios).
func (l *Locker) SessionID() int64 { return l.conn.SessionID() }

// Lock makes one attempt: create our znode, and hold the lock if it has the
// lowest sequence; else (TryLock) delete it and report busy, or (Wait)
// watch the predecessor until it goes, for up to WaitTimeout.
func (l *Locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	actx, cancel := context.WithTimeout(ctx, l.cfg.WaitTimeout)
	defer cancel()
	dir := l.cfg.Prefix + "/" + strings.ReplaceAll(key, "/", "_")
	node, err := l.create(dir)
	if err != nil {
		att.Elapsed = time.Since(start)
		return nil, att, l.failed(ctx, &att, err)
	}
	seq, _ := parseSeq(node)
	for {
		pred, err := l.predecessor(dir, seq)
		if err == nil && pred == "" {
			break // lowest: ours
		}
		if err == nil && l.cfg.Wait {
			err = l.awaitGone(actx, dir+"/"+pred)
			if err == nil {
				continue
			}
		}
		att.Elapsed = time.Since(start)
		l.drop(node)
		switch {
		case err == nil || (ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)):
			att.HeldByOther = 1
			return nil, att, fmt.Errorf("zklock: %s: %w", key, drivers.ErrBusy)
		}
		return nil, att, l.failed(ctx, &att, err)
	}
	// The fencing token: our znode's czxid (one more round trip; the
	// create reply does not carry it).
	ok, st, err := l.conn.Exists(node)
	att.Elapsed = time.Since(start)
	if err != nil || !ok {
		l.drop(node)
		if err == nil {
			err = errors.New("own znode gone right after the grant (session expired?)")
		}
		return nil, att, l.failed(ctx, &att, err)
	}
	att.Won = 1
	ls := &lease{l: l, node: node, fence: uint64(st.Czxid)}
	ls.SetValidUntil(start.Add(l.cfg.SessionTimeout))
	att.Validity = time.Until(ls.ValidUntil())
	return ls, att, nil
}

// predecessor is the child of dir with the highest sequence below seq; ""
// when seq is the lowest.
func (l *Locker) predecessor(dir string, seq int) (string, error) {
	children, _, err := l.conn.Children(dir)
	if err != nil {
		return "", err
	}
	type child struct {
		name string
		seq  int
	}
	var lower []child
	for _, c := range children {
		if s, err := parseSeq(c); err == nil && s < seq {
			lower = append(lower, child{c, s})
		}
	}
	if len(lower) == 0 {
		return "", nil
	}
	sort.Slice(lower, func(i, j int) bool { return lower[i].seq < lower[j].seq })
	return lower[len(lower)-1].name, nil
}

// awaitGone watches path until it is deleted or ctx ends.
func (l *Locker) awaitGone(ctx context.Context, path string) error {
	ok, _, ch, err := l.conn.ExistsW(path)
	if err != nil || !ok {
		return err
	}
	select {
	case ev := <-ch:
		return ev.Err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// failed tallies and wraps an attempt that errored for another reason than
// a holder.
func (l *Locker) failed(ctx context.Context, att *drivers.Attempt, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("zklock: %w (%v)", ctx.Err(), err)
	case errors.Is(err, zk.ErrNoServer), errors.Is(err, zk.ErrConnectionClosed), errors.Is(err, context.DeadlineExceeded):
		att.TimedOut = 1
		return fmt.Errorf("zklock: %v: %w", err, drivers.ErrTimeout)
	}
	att.Failed = 1
	return fmt.Errorf("zklock: %w", err)
}

// parseSeq reads the 10-digit sequence ZooKeeper appends to a name.
func parseSeq(name string) (int, error) {
	if len(name) < 10 {
		return 0, fmt.Errorf("zklock: %q: no sequence", name)
	}
	return strconv.Atoi(name[len(name)-10:])
}

// Close ends the session: every znode it holds is deleted.
func (l *Locker) Close() error {
	close(l.closed)
	l.conn.Close()
	l.wg.Wait()
	return nil
}
