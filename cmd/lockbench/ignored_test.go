package main

import (
	"github.com/lockbench/lockbench/internal/exit"
	"strings"
	"testing"
	"time"
)

// TestFlagsThatDoNotApply: a flag given for a run it does not apply to is
// refused before anything starts (exit 2, one line naming it), not
// ignored; compare refuses a backend whose cells would all be alike.
func TestFlagsThatDoNotApply(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		flag string
	}{
		{"masters with redis", []string{"run", "--redis", "127.0.0.1:1", "--masters", "3"}, "--masters"},
		{"redis with etcd", []string{"run", "--backend", "etcd", "--redis", "127.0.0.1:1"}, "--redis"},
		{"password file with local masters", []string{"run", "--redis-password-file", "/dev/null"}, "--redis-password-file"},
		{"pg-mode with redlock", []string{"run", "--pg-mode", "xact"}, "--pg-mode"},
		{"rueidis-pipes with goredis", []string{"run", "--client", "goredis", "--rueidis-pipes", "2"}, "--rueidis-pipes"},
		{"goredis pool with rueidis", []string{"run", "--client", "rueidis", "--goredis-pool-size", "8"}, "--goredis-pool-size"},
		{"batch with fanout", []string{"run", "--mux", "fanout", "--batch", "8"}, "--batch"},
		{"mux with etcd", []string{"run", "--backend", "etcd", "--mux", "pipeline"}, "--mux"},
		{"compare etcd", []string{"compare", "--backend", "etcd"}, "--backend etcd"},
		{"compare rueidis tuning without rueidis", []string{"compare", "--clients", "goredis", "--rueidis-pipes", "2"}, "--rueidis-pipes"},
		{"compare batch without pipeline", []string{"compare", "--muxes", "fanout,auto", "--batch", "4"}, "--batch"},
		{"compare etcd setting without etcd", []string{"compare", "--etcd-keepalive"}, "--etcd-keepalive"},
		{"compare zookeeper", []string{"compare", "--backend", "zookeeper", "--workloads", "contended"}, "--backend zookeeper"},
	} {
		_, stderr, code := cli(t, 30*time.Second, c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exit.Usage || len(lines) != 1 || !strings.Contains(stderr, c.flag) {
			t.Errorf("%s: exit %d, stderr %q: want exit 2, one line naming %s", c.name, code, stderr, c.flag)
		}
	}
}
