// Package etcdconn is how lockbench reaches an etcd cluster: TLS files and
// an etcd user (etcdctl's names), the password never serialised. Bad input
// is a *fielderr.Error naming the config field; it imports no other
// lockbench package than results/fielderr and results/redact.
package etcdconn

import (
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// EnvPassword gives the etcd user's password, so it need not be on a
// command line.
const EnvPassword = "LOCKBENCH_ETCD_PASSWORD"

// Access is how a client reaches and authenticates to the cluster: TLS
// (etcdctl's --cacert/--cert/--key) and an etcd user. The password is never
// serialised.
type Access struct {
	TLS      bool   `json:"tls"` // https:// endpoints; the system's CAs unless CACert
	CACert   string `json:"ca_cert,omitempty" flag:"etcd-cacert" help:"external etcd: CA certificates to trust (PEM)"`
	Cert     string `json:"cert,omitempty" flag:"etcd-cert" help:"external etcd: client certificate (PEM)"`
	Key      string `json:"key,omitempty" flag:"etcd-key" help:"external etcd: client certificate's key (PEM)"`
	Username string `json:"username,omitempty" flag:"etcd-user" help:"external etcd: user (password from LOCKBENCH_ETCD_PASSWORD)"`
	Password string `json:"-"`
}

// Apply sets c's TLS and credentials (etcd's transport.TLSInfo reads the
// files), and gives c's bare host:port endpoints the https scheme the
// client needs to dial them with TLS. A file that does not load is a
// *fielderr.Error naming its field of Access ("ca_cert", "cert", "key").
func (a Access) Apply(c *clientv3.Config) error {
	c.Username, c.Password = a.Username, a.Password
	if !a.TLS && a.CACert == "" && a.Cert == "" {
		return nil
	}
	eps := make([]string, len(c.Endpoints))
	for i, e := range c.Endpoints {
		if !strings.Contains(e, "://") {
			e = "https://" + e
		}
		eps[i] = e
	}
	c.Endpoints = eps
	info := transport.TLSInfo{TrustedCAFile: a.CACert, CertFile: a.Cert, KeyFile: a.Key}
	var err error
	if info.Empty() && a.CACert == "" {
		c.TLS, err = (&transport.TLSInfo{}).ClientConfig()
	} else {
		c.TLS, err = info.ClientConfig()
	}
	if err != nil {
		field, file := a.tlsFile(err)
		return fielderr.Invalid(field, file, "etcd TLS: %w", err)
	}
	return nil
}

// tlsFile is the field of a's TLS files (and its file) that err, a failed
// load, names; the first one set when err names none.
func (a Access) tlsFile(err error) (field, file string) {
	files := [][2]string{{"ca_cert", a.CACert}, {"cert", a.Cert}, {"key", a.Key}}
	for _, f := range files {
		if f[1] != "" && strings.Contains(err.Error(), f[1]) {
			return f[0], f[1]
		}
	}
	for _, f := range files {
		if f[1] != "" {
			return f[0], f[1]
		}
	}
	return "tls", ""
}
