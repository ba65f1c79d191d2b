package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/lab"
)

// writer is the one output.Writer of a command from its config: stdout's
// format and table width, --json and --out.
func (c *RunConfig) writer(stdout io.Writer) output.Writer {
	return output.Writer{Stdout: stdout, Format: c.Format, JSON: c.JSON, Out: c.Out, TableOptions: results.TableOptions{Wide: c.Wide}}
}

// writeResults prints the runs table and writes --json and --out.
func writeResults(cfg RunConfig, sum *results.Summary, cells []measured) error {
	return flagError(cfg.writer(cfg.out()).Write(sum, lab.Logs(cells)))
}

// flagError names the flag of a failed write or read: --json or --out,
// other destinations (a command's inputs) as they are.
func flagError(err error) error {
	var e *output.Error
	if errors.As(err, &e) && (e.Dest == "json" || e.Dest == "out") {
		return fmt.Errorf("--%s %q: %w", e.Dest, e.Path, e.Err)
	}
	return err
}

// checkOutputFile is output.CheckFile as a usage error naming the flag.
func checkOutputFile(flag, path string) error {
	if err := output.CheckFile(path); err != nil {
		return usagef("%s %q: %v", flag, path, err)
	}
	return nil
}
