package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/lab"
)

// RunConfig is everything a run was told. It is written into every result.
// The cell itself is a lab.Config; output.Options are how it is written and
// shown. Every tagged field is a flag (flagtag), here and in both.
type RunConfig struct {
	lab.Config
	output.Options
	// AllowFailures: a run where most attempts fail (exit 1 without it) or
	// that measured no progress (no grant, a stall: exit 4) is what was
	// wanted (a fault experiment by hand).
	AllowFailures bool `json:"allow_failures,omitempty" flag:"allow-failures" help:"exit 0 even when a run grants nothing, stalls or has more than half its attempts fail (implied by --fault)"`
	// stdout and stderr are the command's (cmd.OutOrStdout, ErrOrStderr, so
	// tests run commands in-process); nil is os.Stdout, os.Stderr.
	stdout, stderr io.Writer
	metrics        *prom.Exporter // set by startMetrics; nil: no --metrics-addr
	outDir         *output.Dir    // --out claimed by claimOut; nil: not claimed
}

// newRunConfig is cell with the CLI's defaults.
func newRunConfig(cell lab.Config) RunConfig {
	return RunConfig{Config: cell, Options: output.DefaultOptions()}
}

func defaultRunConfig() RunConfig { return newRunConfig(lab.DefaultConfig()) }

// bindRun registers c's flags, but those of the fields under skip (JSON
// paths), on fs.
func bindRun(fs *pflag.FlagSet, c *RunConfig, skip ...string) *flagtag.Set {
	set := flagtag.New(fs).Bind(c, skip...)
	if f := fs.Lookup("format"); f != nil {
		f.Usage = output.FormatHelp() // the registered formats
	}
	return set
}

// validate checks everything before any server starts, naming the flag.
func (c *RunConfig) validate() error {
	if err := c.Options.Validate(); err != nil {
		return fieldUsage(err)
	}
	// The flags that take addresses, URLs and credentials first: the
	// library's checks count the servers they name.
	if err := c.ResolveExternal(); err != nil {
		return fieldUsage(err)
	}
	if err := c.Config.Validate(); err != nil {
		return fieldUsage(err)
	}
	return c.checkOutputs()
}

// out is where tables and stdout JSON go.
func (c *RunConfig) out() io.Writer {
	if c.stdout == nil {
		return os.Stdout
	}
	return c.stdout
}

// setIO takes the command's writers.
func (c *RunConfig) setIO(cmd *cobra.Command) {
	c.stdout, c.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
}

// errOut is where progress, phases and warnings go.
func (c *RunConfig) errOut() io.Writer {
	if c.stderr == nil {
		return os.Stderr
	}
	return c.stderr
}
