package main

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
)

// runFlags names the flag of every RunConfig field (lab.Config's among
// them), for errors found outside a command's own flag set.
var runFlags = bindRun(pflag.NewFlagSet("fields", pflag.ContinueOnError), &RunConfig{})

// flagOf names the flag that sets a config field, from the field's path as
// a library names it (JSON "workload.retry_delay" or Go
// "Base.Topology.RedisAddrs"; the "base" of compare's and sweep's configs
// is run's cell): in sets first, then among run's flags. A field no flag
// sets is named as it is.
func flagOf(field string, sets ...*flagtag.Set) string {
	cell := strings.TrimPrefix(strings.TrimPrefix(field, "base."), "Base.")
	if name := flagtag.Lookup(append(sets, runFlags), field, cell); name != "" {
		return name
	}
	if rttFields[cell] {
		return "--rtt"
	}
	return field
}

// fieldUsage is a library's field error as bad input naming the flag
// (flagOf); other errors are bad input as they are.
func fieldUsage(err error, sets ...*flagtag.Set) error {
	var fe *fielderr.Error
	if errors.As(err, &fe) {
		return usagef("%s", fe.Name(func(f string) string { return flagOf(f, sets...) }))
	}
	if errors.As(err, new(usageError)) {
		return err
	}
	return usageError{err}
}

// flagsNamed is err's message with the config field of a field error in its
// chain named by its flag (flagOf), for an error that reached the end of a
// command without passing fieldUsage (wrapped by a compare's cell).
func flagsNamed(err error) string {
	msg := err.Error()
	var fe *fielderr.Error
	if errors.As(err, &fe) {
		msg = strings.Replace(msg, fe.Error(), fe.Name(func(f string) string { return flagOf(f) }), 1)
	}
	return msg
}
