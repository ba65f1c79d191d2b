package compose

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"
)

// zooKeeperUser is the digest user a local server's data belongs to.
const zooKeeperUser = "lockbench"

// zooKeeperAuthConf makes the server refuse every request of a session
// that has not authenticated (digest): ZooKeeper's digest scheme accepts
// any user:password, so what keeps another local user out of the data is
// the ACL protectZooKeeper puts on the root.
const zooKeeperAuthConf = "enforce.auth.enabled=true\nenforce.auth.schemes=digest\n"

// protectZooKeeper gives the tree's root (so every node a client creates
// under it, the lock's prefix included, needs its parent's create
// permission) to the digest user user:password alone.
func protectZooKeeper(ctx context.Context, addr, user, password string, c *tls.Config) error {
	conn, err := zkSession(ctx, addr, user+":"+password, c)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.SetACL("/", zk.DigestACL(zk.PermAll, user, password), -1); err != nil {
		return fmt.Errorf("compose: zookeeper set ACL of /: %w", err)
	}
	return nil
}

// zkSession connects to addr (over TLS with c), waits for a session and
// authenticates it with the digest credentials user:password.
func zkSession(ctx context.Context, addr, digest string, c *tls.Config) (*zk.Conn, error) {
	conn, events, err := zk.Connect([]string{addr}, 10*time.Second, zk.WithLogger(nopZKLogger{}), zk.WithDialer(zkTLSDialer(c)))
	if err != nil {
		return nil, fmt.Errorf("compose: zookeeper %s: %w", addr, err)
	}
	go func() {
		for range events {
		}
	}()
	for conn.State() != zk.StateHasSession {
		select {
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("compose: zookeeper %s: no session: %w", addr, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := conn.AddAuth("digest", []byte(digest)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("compose: zookeeper %s: auth: %w", addr, err)
	}
	return conn, nil
}

type nopZKLogger struct{}

func (nopZKLogger) Printf(string, ...any) {}
