package compose

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/drivers/etcdconn"
)

// enableEtcdAuth creates user root (role root) with a generated password
// and turns authentication on, the way etcdctl's `user add` and `auth
// enable` do; it returns a with root's credentials.
func enableEtcdAuth(ctx context.Context, endpoints []string, a etcdconn.Access) (etcdconn.Access, error) {
	pw, err := generatePassword()
	if err != nil {
		return a, err
	}
	c, err := etcdClient(ctx, endpoints, a)
	if err != nil {
		return a, fmt.Errorf("compose: etcd auth: %w", err)
	}
	defer c.Close()
	if _, err := c.UserAdd(ctx, "root", pw); err != nil {
		return a, fmt.Errorf("compose: etcd user add root: %w", err)
	}
	if _, err := c.UserGrantRole(ctx, "root", "root"); err != nil {
		return a, fmt.Errorf("compose: etcd grant root: %w", err)
	}
	if _, err := c.AuthEnable(ctx); err != nil {
		return a, fmt.Errorf("compose: etcd auth enable: %w", err)
	}
	a.Username, a.Password = "root", pw
	return a, nil
}
