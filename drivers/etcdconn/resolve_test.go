package etcdconn

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/results/fielderr"
)

// TestResolve: endpoints lose their scheme (https turns TLS on), the
// password comes from the environment, and every refusal names its field.
func TestResolve(t *testing.T) {
	files, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		endpoints []string
		access    Access
		secure    bool
		env       string
		field     string // "" for success
		want      []string
		tls       bool
		password  string
	}{
		{name: "local"},
		{name: "local secure", secure: true},
		{name: "plain", endpoints: []string{" h:1 ", "http://h:2/"}, want: []string{"h:1", "h:2"}},
		{name: "https", endpoints: []string{"https://h:1/", "h:2"}, want: []string{"h:1", "h:2"}, tls: true},
		{name: "ca file", endpoints: []string{"h:1"}, access: Access{CACert: files.CA}, want: []string{"h:1"}, tls: true},
		{name: "ca file missing", endpoints: []string{"h:1"}, access: Access{CACert: files.CA + ".gone"}, field: "etcd_access.ca_cert"},
		{name: "key missing", endpoints: []string{"h:1"}, access: Access{Cert: files.ClientCert, Key: files.ClientKey + ".gone"}, field: "etcd_access.key"},
		{name: "user", endpoints: []string{"h:1"}, access: Access{Username: "u"}, env: "pw", want: []string{"h:1"}, password: "pw"},
		{name: "user without password", endpoints: []string{"h:1"}, access: Access{Username: "u"}, field: "etcd_access.username"},
		{name: "access for the local cluster", access: Access{Cert: "c.pem"}, field: "etcd_access"},
		{name: "credentials in a url", endpoints: []string{"https://u:p/w#x?y@z@h:1"}, field: "etcd_addrs"},
		{name: "credentials in a host port", endpoints: []string{"u:pw@h:1"}, field: "etcd_addrs"},
		{name: "secure external", endpoints: []string{"h:1"}, secure: true, field: "etcd.secure"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvPassword, c.env)
			eps, a := slices.Clone(c.endpoints), c.access
			err := Resolve(eps, &a, c.secure)
			if c.field != "" {
				var fe *fielderr.Error
				if !errors.As(err, &fe) || fe.Field != c.field {
					t.Fatalf("error %v, want a field error of %s", err, c.field)
				}
				if strings.Contains(err.Error(), "p/w") || strings.Contains(err.Error(), ":pw") {
					t.Fatalf("error %v shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(eps, c.want) || a.TLS != c.tls || a.Password != c.password {
				t.Errorf("endpoints %q tls %v password %q; want %q %v %q", eps, a.TLS, a.Password, c.want, c.tls, c.password)
			}
		})
	}
}
