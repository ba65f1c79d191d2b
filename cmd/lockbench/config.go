package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
)

// RunConfig is everything a run was told. It is written into every result.
// The cell itself is a lab.Config; the rest is how the CLI writes and shows
// it. Every tagged field is a flag (flagtag), here and in lab.Config.
type RunConfig struct {
	lab.Config
	JSON  string `json:"-" flag:"json" help:"write the summary JSON to FILE (- for stdout)"`
	Out   string `json:"-" flag:"out" help:"write summary.json, config.json and .hlog interval logs into DIR"`
	Quiet bool   `json:"-" flag:"quiet" short:"q" help:"no progress line on stderr"`
	// AllowFailures: a run where most attempts fail is what was wanted
	// (a fault experiment by hand); without it such a run exits 1.
	AllowFailures bool   `json:"allow_failures,omitempty" flag:"allow-failures" help:"exit 0 even when more than half the attempts fail (implied by --fault)"`
	Format        string `json:"-" flag:"format" help:"stdout: table | csv (the runs table, every column) | gobench (Go benchmark lines for benchstat and CI benchmark actions)"`
	MetricsAddr   string `json:"-" flag:"metrics-addr" help:"serve Prometheus metrics at http://HOST:PORT/metrics while measuring (e.g. :9464)"`
	Wide          bool   `json:"-" flag:"wide" help:"table: every column (default: the essentials, fitted to 100 columns or the terminal)"`
	// stdout and stderr are the command's (cmd.OutOrStdout, ErrOrStderr, so
	// tests run commands in-process); nil is os.Stdout, os.Stderr.
	stdout, stderr io.Writer
	metrics        *prom.Exporter // set by startMetrics; nil: no --metrics-addr
}

// newRunConfig is cell with the CLI's defaults.
func newRunConfig(cell lab.Config) RunConfig { return RunConfig{Config: cell, Format: "table"} }

func defaultRunConfig() RunConfig { return newRunConfig(lab.DefaultConfig()) }

// bindRun registers c's flags, but those of the fields under skip (JSON
// paths), on fs.
func bindRun(fs *pflag.FlagSet, c *RunConfig, skip ...string) *flagtag.Set {
	return flagtag.New(fs).Bind(c, skip...)
}

// validate checks everything before any server starts, naming the flag.
func (c *RunConfig) validate() error {
	switch {
	case c.Format == "":
		c.Format = "table"
	case c.Format != "table" && c.Format != "csv" && c.Format != "gobench":
		return usagef("--format %q: want table, csv or gobench", c.Format)
	case c.Format != "table" && c.JSON == "-":
		return usagef("--format %s: stdout is taken by --json -", c.Format)
	}
	// The flags that take addresses, URLs and credentials first: the
	// library's checks count the servers they name.
	if err := c.ResolveExternal(); err != nil {
		return fieldUsage(err)
	}
	if err := c.Config.Validate(); err != nil {
		return fieldUsage(err)
	}
	if err := c.writer(nil).Check(); err != nil {
		return usageError{flagError(err)}
	}
	return nil
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
