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

// fieldUsage is a library's field error as bad input naming the flag;
// other errors are bad input as they are.
func fieldUsage(err error) error {
	var fe *results.FieldError
	if errors.As(err, &fe) {
		return usagef("%s", fe.Name(flagOf))
	}
	return usageError{err}
}
