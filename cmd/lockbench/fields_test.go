package main

import "testing"

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
	} {
		if got := flagOf(path); got != flag {
			t.Errorf("flagOf(%q) = %s, want %s", path, got, flag)
		}
		if newRunCmd().Flags().Lookup(flag[2:]) == nil {
			t.Errorf("run has no flag %s", flag)
		}
	}
}
