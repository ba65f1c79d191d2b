package lab

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
)

// TestCheckGiven: a field given for a cell it does not apply to is
// refused, naming it and why; one that applies passes.
func TestCheckGiven(t *testing.T) {
	cell := func(backend, client, mux string, external bool) Config {
		c := DefaultConfig()
		c.Driver.Backend, c.Driver.Client, c.Driver.Mux = backend, client, mux
		if external {
			c.Topology.RedisAddrs = redisconn.URLs{"127.0.0.1:1"}
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		c     Config
		field string
		want  string // "" applies
	}{
		{"masters, local", cell("redlock", "goredis", "pipeline", false), "topology.redis.masters", ""},
		{"masters, external", cell("redlock", "goredis", "pipeline", true), "topology.redis.masters", "given by topology.redis_addrs"},
		{"password file, local", cell("redlock", "goredis", "pipeline", false), "topology.redis_auth.password_file", "for external masters"},
		{"password file, external", cell("redlock", "goredis", "pipeline", true), "topology.redis_auth.password_file", ""},
		{"redis for etcd", cell("etcd", "", "", false), "topology.redis_addrs", "backend etcd uses no redis"},
		{"etcd for etcd", cell("etcd", "", "", false), "topology.etcd_addrs", ""},
		{"rueidis tuning, goredis", cell("redlock", "goredis", "auto", false), "driver.client_tuning.rueidis_pipes", "tunes the rueidis client (here: goredis)"},
		{"rueidis tuning, rueidis", cell("redlock", "rueidis", "auto", false), "driver.client_tuning.rueidis_pipes", ""},
		{"batch, fanout", cell("redlock", "goredis", "fanout", false), "driver.multiplex.batch", "pipeline strategy's (here: fanout)"},
		{"batch, pipeline", cell("redlock", "goredis", "pipeline", false), "driver.multiplex.batch", ""},
		{"mux for etcd", cell("etcd", "", "", false), "driver.mux", "no strategy choice"},
		{"client for zookeeper", cell("zookeeper", "", "", false), "driver.client", "no client choice"},
		{"postgres mode for redlock", cell("redlock", "goredis", "pipeline", false), "driver.postgres.mode", "backend postgres's, not redlock's"},
		{"postgres mode for postgres", cell("postgres", "", "", false), "driver.postgres.mode", ""},
		{"workers anywhere", cell("etcd", "", "", false), "workload.workers", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.CheckGiven([]string{tc.field})
			var fe *fielderr.Error
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "":
			case !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want):
				t.Fatalf("%v, want a field error of %s saying %q", err, tc.field, tc.want)
			}
		})
	}
}

// TestAppliesTagsKnown: every applies tag of a cell's config uses words
// the check knows, so a typo cannot refuse a field everywhere.
func TestAppliesTagsKnown(t *testing.T) {
	c := DefaultConfig()
	rules := flagtag.Tags(&c, "applies")
	if len(rules) < 10 {
		t.Fatalf("%d applies tags found, want the topology's and the driver's: %v", len(rules), rules)
	}
	for field, rule := range rules {
		for _, cond := range strings.Split(rule, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(cond), "=")
			if _, server := backends.ParseServer(name); !server && !strings.Contains(" local external clients client muxes mux ", " "+name+" ") {
				t.Errorf("%s: applies %q: unknown word %q", field, rule, name)
			}
		}
	}
}
