package lab

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/fielderr"
)

// TestBindFlags: the flags set the config, a field error of Validate is
// named by its flag, and the helps that list what the code knows (the
// backends, the environment variables) say what it knows.
func TestBindFlags(t *testing.T) {
	c := DefaultConfig()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	set := BindFlags(fs, &c)
	if err := fs.Parse([]string{"--workers", "0", "--backend", "etcd", "--redis", "a:1,b:2", "--fault", "kill:masters=1,2:at=1s"}); err != nil {
		t.Fatal(err)
	}
	if c.Workload.Workers != 0 || c.Driver.Backend != "etcd" || len(c.Topology.RedisAddrs) != 2 || len(c.Faults) != 1 {
		t.Fatalf("flags not set: %+v", c)
	}
	var fe *fielderr.Error
	if err := c.Validate(); !errors.As(err, &fe) || fe.Name(set.Flag) != "--workers 0: must be at least 1" {
		t.Fatalf("Validate: %v, want --workers named", err)
	}
	for flag, want := range map[string]string{
		"backend":             "lock backend: " + strings.Join(backends.Names(), ", "),
		"redis":               redisconn.EnvPassword,
		"redis-password-file": redisconn.EnvUser,
		"etcd-user":           etcdconn.EnvPassword,
	} {
		if u := fs.Lookup(flag).Usage; !strings.Contains(u, want) {
			t.Errorf("--%s help %q does not say %q", flag, u, want)
		}
	}
}
