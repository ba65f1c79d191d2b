package main

import (
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/etcdconn"
)

// bindEtcdAccess registers etcd's TLS and auth flags (etcdctl's names).
func bindEtcdAccess(fs *pflag.FlagSet, c *RunConfig) {
	a := &c.Topology.EtcdAccess
	fs.StringVar(&a.Username, "etcd-user", "", "external etcd: user (password from "+etcdconn.EnvPassword+")")
	fs.StringVar(&a.CACert, "etcd-cacert", "", "external etcd: CA certificates to trust (PEM)")
	fs.StringVar(&a.Cert, "etcd-cert", "", "external etcd: client certificate (PEM)")
	fs.StringVar(&a.Key, "etcd-key", "", "external etcd: client certificate's key (PEM)")
	fs.BoolVar(&c.Topology.Etcd.Secure, "etcd-secure", false, "local etcd: serve clients over TLS (a CA made for the run) with auth on (root, a generated password)")
}

// validateEtcdAccess strips http(s):// from --etcd entries (https turns
// TLS on) and takes the password from the environment.
func (c *RunConfig) validateEtcdAccess() error {
	a := &c.Topology.EtcdAccess
	external := len(c.Topology.EtcdAddrs) > 0
	if !external && (*a != etcdconn.Access{}) {
		return usagef("--etcd-user/--etcd-cacert/--etcd-cert/--etcd-key: only with --etcd (use --etcd-secure for the local cluster)")
	}
	if external && c.Topology.Etcd.Secure {
		return usagef("--etcd-secure: only for the local cluster, not with --etcd")
	}
	for i, e := range c.Topology.EtcdAddrs {
		e = strings.TrimSpace(e)
		if rest, ok := strings.CutPrefix(e, "https://"); ok {
			e, a.TLS = rest, true
		} else {
			e = strings.TrimPrefix(e, "http://")
		}
		c.Topology.EtcdAddrs[i] = strings.TrimSuffix(e, "/")
	}
	if a.CACert != "" || a.Cert != "" || a.Key != "" {
		a.TLS = true
	}
	if a.Username != "" && a.Password == "" {
		a.Password = os.Getenv(etcdconn.EnvPassword)
		if a.Password == "" {
			return usagef("--etcd-user %q: set its password in %s", a.Username, etcdconn.EnvPassword)
		}
	}
	return nil
}
