package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/workloads/lab"
)

// TestFlagOf: every config field a library names in its errors maps to the
// flag that sets it.
func TestFlagOf(t *testing.T) {
	for path, flag := range map[string]string{
		"workload.workload":                            "--workload",
		"workload.retry_delay":                         "--retry-delay",
		"workload.zipf_s":                              "--zipf-s",
		"workload.hold_dist":                           "--hold-dist",
		"driver.multiplex.flush_delay":                 "--flush-delay",
		"driver.multiplex.max_in_flight":               "--max-in-flight",
		"driver.client_tuning.rueidis_max_flush_delay": "--rueidis-max-flush-delay",
		"driver.etcd.wait_timeout":                     "--etcd-wait-timeout",
		"driver.etcd.wait":                             "--etcd-wait",
		"driver.zookeeper.wait_timeout":                "--zk-wait-timeout",
		"driver.postgres.mode":                         "--pg-mode",
		"driver.redlock.ttl":                           "--ttl",
		"driver.single.wait_replicas":                  "--wait-replicas",
		"driver.redsync.no_fail_fast":                  "--redsync-no-fail-fast",
		"topology.redis_addrs":                         "--redis",
		"topology.etcd_addrs":                          "--etcd",
		"topology.zookeeper_addrs":                     "--zookeeper",
		"topology.redis_auth.password_file":            "--redis-password-file",
		"topology.redis_auth.tls.ca_cert":              "--tls-ca-cert",
		"topology.redis_auth.tls.cert":                 "--tls-cert",
		"topology.redis_auth.tls.key":                  "--tls-key",
		"topology.etcd_access.username":                "--etcd-user",
		"topology.etcd.secure":                         "--etcd-secure",
	} {
		if got := lab.Flag(path); got != flag {
			t.Errorf("lab.Flag(%q) = %s, want %s", path, got, flag)
		}
		if newRunCmd().Flags().Lookup(flag[2:]) == nil {
			t.Errorf("run has no flag %s", flag)
		}
	}
}

// TestFlagOfGroupFlagsExist: every flag a group of fields is named by
// (each of "a/b", every match of "--tls-*") is one of run's flags.
func TestFlagOfGroupFlagsExist(t *testing.T) {
	fs := newRunCmd().Flags()
	for _, path := range []string{"topology.redis_auth.tls", "topology.etcd_access", "faults"} {
		names := lab.Flag(path)
		for _, f := range strings.Split(names, "/") {
			name := strings.TrimPrefix(f, "--")
			if prefix, ok := strings.CutSuffix(name, "*"); ok {
				n := 0
				fs.VisitAll(func(fl *pflag.Flag) {
					if strings.HasPrefix(fl.Name, prefix) {
						n++
					}
				})
				if n == 0 {
					t.Errorf("%s: no flag matches %s", path, f)
				}
				continue
			}
			if fs.Lookup(name) == nil {
				t.Errorf("%s: run has no flag %s", path, f)
			}
		}
	}
}
