package main

import (
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
