package main

import (
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
)

// refuseIgnored refuses a flag given (fs.Changed) for runs it applies to
// none of (lab.Config.CheckGiven), naming it and why: exit 2 before
// anything starts. A compare passes every cell of its plan: a client's
// tuning flag applies when some cell runs that client.
func refuseIgnored(fs *pflag.FlagSet, cells ...lab.Config) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		field := flagtag.Field(f)
		if err != nil || field == "" {
			return
		}
		var refused error
		for _, c := range cells {
			if refused = c.CheckGiven([]string{field}); refused == nil {
				return
			}
		}
		err = refused
	})
	if err != nil {
		return fieldUsage(err)
	}
	return nil
}
