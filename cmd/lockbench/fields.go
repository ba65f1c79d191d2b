package main

import (
	"errors"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// flagOf names the flag that sets a config field, from the field's path as
// the config serialises it: the last element with dashes, after the prefix
// of the backend's own section ("driver.etcd.wait_timeout" is
// --etcd-wait-timeout, "workload.retry_delay" --retry-delay).
func flagOf(path string) string {
	if f, ok := flagOfPath[path]; ok {
		return f
	}
	parts := strings.Split(path, ".")
	name := strings.ReplaceAll(parts[len(parts)-1], "_", "-")
	if len(parts) >= 2 {
		switch parts[len(parts)-2] {
		case "etcd":
			name = "etcd-" + name
		case "zookeeper":
			name = "zk-" + name
		case "postgres":
			name = "pg-" + name
		}
	}
	return "--" + name
}

// flagOfPath names the flags of the fields the rule of flagOf misses.
var flagOfPath = map[string]string{
	"faults":                            "--fault",
	"topology.redis_addrs":              "--redis",
	"topology.etcd_addrs":               "--etcd",
	"topology.zookeeper_addrs":          "--zookeeper",
	"topology.redis_auth.password_file": "--redis-password-file",
	"topology.redis_auth.tls":           "--tls-*",
	"topology.redis_auth.tls.ca_cert":   "--tls-ca-cert",
	"topology.redis_auth.tls.cert":      "--tls-cert",
	"topology.redis_auth.tls.key":       "--tls-key",
	"topology.etcd_access":              "--etcd-user/--etcd-cacert/--etcd-cert/--etcd-key",
	"topology.etcd_access.username":     "--etcd-user",
}

// fieldUsage is a library's field error as bad input naming the flag;
// other errors are bad input as they are.
func fieldUsage(err error) error {
	var fe *results.FieldError
	if errors.As(err, &fe) {
		return usagef("%s", fe.Name(flagOf))
	}
	return usageError{err}
}
