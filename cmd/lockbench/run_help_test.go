package main

import (
	"regexp"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestRunHelpNamesFlags: every flag runHelp names is one of a run's: the
// Config's or the output options'.
func TestRunHelpNamesFlags(t *testing.T) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	cfg, opt := lab.DefaultConfig(), output.DefaultOptions()
	flagtag.New(fs).Bind(&cfg)
	flagtag.New(fs).Bind(&opt)
	named := regexp.MustCompile(`--([a-z][a-z-]*)`).FindAllStringSubmatch(runHelp, -1)
	if len(named) == 0 {
		t.Fatal("runHelp names no flag")
	}
	for _, m := range named {
		if fs.Lookup(m[1]) == nil {
			t.Errorf("runHelp names --%s, not a flag of run", m[1])
		}
	}
}
