package main

import (
	"slices"
	"strings"
	"testing"
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
		"driver.client_tuning.rueidis_max_flush_delay": "--rueidis-max-flush-delay",
		"driver.etcd.wait_timeout":                     "--etcd-wait-timeout",
		"driver.etcd.wait":                             "--etcd-wait",
		"driver.zookeeper.wait_timeout":                "--zk-wait-timeout",
		"driver.postgres.mode":                         "--pg-mode",
		"driver.redlock.ttl":                           "--ttl",
		"driver.wait_replicas":                         "--wait-replicas",
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
		if got := flagOf(path); got != flag {
			t.Errorf("flagOf(%q) = %s, want %s", path, got, flag)
		}
		if newRunCmd().Flags().Lookup(flag[2:]) == nil {
			t.Errorf("run has no flag %s", flag)
		}
	}
}

// TestFlagOfGroups: a field set by several flags names each, and each exists.
func TestFlagOfGroups(t *testing.T) {
	for path, flags := range map[string][]string{
		"topology.redis_auth.tls": {"tls-ca-cert", "tls-cert", "tls-key", "tls-server-name", "tls-insecure-skip-verify"},
		"topology.etcd_access":    {"etcd-user", "etcd-cacert", "etcd-cert", "etcd-key"},
	} {
		got := flagOf(path)
		for _, f := range flags {
			named := slices.Contains(strings.Split(got, "/"), "--"+f) ||
				strings.HasSuffix(got, "*") && strings.HasPrefix("--"+f, strings.TrimSuffix(got, "*"))
			if !named {
				t.Errorf("flagOf(%q) = %s, does not name --%s", path, got, f)
			}
			if newRunCmd().Flags().Lookup(f) == nil {
				t.Errorf("run has no flag --%s", f)
			}
		}
	}
}
