package lab_test

import (
	"reflect"
	"testing"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestInputs: every file a cell reads is an input named by its field, in
// the fields' order; unset ones are not.
func TestInputs(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*lab.Config)
		want []output.Path
	}{
		{"none", func(*lab.Config) {}, nil},
		{"password", func(c *lab.Config) { c.Topology.RedisAuth.PasswordFile = "pw" },
			[]output.Path{{Dest: "Topology.RedisAuth.PasswordFile", Path: "pw"}}},
		{"tls and etcd", func(c *lab.Config) {
			c.Topology.EtcdAccess.Key = "ek"
			c.Topology.RedisAuth.TLS.CACert, c.Topology.RedisAuth.TLS.Cert, c.Topology.RedisAuth.TLS.Key = "ca", "c", "k"
		}, []output.Path{
			{Dest: "Topology.RedisAuth.TLS.CACert", Path: "ca"},
			{Dest: "Topology.RedisAuth.TLS.Cert", Path: "c"},
			{Dest: "Topology.RedisAuth.TLS.Key", Path: "k"},
			{Dest: "Topology.EtcdAccess.Key", Path: "ek"},
		}},
	} {
		cfg := lab.DefaultConfig()
		c.set(&cfg)
		if got := cfg.Inputs(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
