package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"

	"github.com/lockbench/lockbench/results/output"
)

// flagError names the flag of a path that cannot be used or written
// (an *output.Error of an output, or of an input given by flag); other
// destinations (a command's positional inputs) are named as they are.
func flagError(err error) error {
	var e *output.Error
	if !errors.As(err, &e) || destName(e.Dest) == e.Dest {
		return err
	}
	return e.Named(destName)
}

// destName is a destination as the user gave it: the flag of an output
// or of an input's field (lab.Config.Inputs), or as it is (the word for
// positional inputs).
func destName(dest string) string {
	switch dest {
	case "json", "out", "cpuprofile", "html":
		return "--" + dest
	}
	return flagOf(dest)
}

// outputPlan is c's outputs (--json, --out, and extra ones such as
// --cpuprofile) with the files it reads (the password and certificate
// files), to be checked together (output.Plan).
func (c *RunConfig) outputPlan(extra ...output.Path) output.Plan {
	w := c.Writer(c.out())
	w.Stderr = c.errOut()
	p := w.Plan()
	p.Files = append(p.Files, extra...)
	p.Inputs = append(p.Inputs, c.Inputs()...)
	return p
}

// checkOutputs is c's outputPlan checked, as a usage error naming the flag.
func (c *RunConfig) checkOutputs(extra ...output.Path) error {
	if err := c.outputPlan(extra...).Check(); err != nil {
		return usageError{flagError(err)}
	}
	return nil
}

// claimOut claims --out for the whole command (output.Writer.ClaimOut):
// bad input when another run holds it or it holds files lockbench did not
// write. The writer of the result takes the claim (writer); an earlier
// result being replaced is said on the log.
func (c *RunConfig) claimOut() (release func(), err error) {
	w := c.Writer(c.out())
	release, err = w.ClaimOut()
	if err != nil {
		return nil, usageError{flagError(err)}
	}
	c.outDir = w.Dir
	if w.Dir != nil && w.Dir.Earlier() {
		if log := c.log(); log != nil {
			fmt.Fprintf(log, "replacing the earlier result lockbench wrote in %s\n", c.Out)
		}
	}
	return release, nil
}

// writer is the Writer of c's result of runs, printing on stdout (the
// errors under the table with what they mean), writing into the claimed
// --out.
func (c *RunConfig) writer(stdout io.Writer, runs []schema.Run) output.Writer {
	w := c.Writer(stdout)
	w.Dir = c.outDir
	w.TableOptions.ErrorsNote = lab.ErrorsNote(c.Config, runs, func(f string) string { return flagOf(f) })
	return w
}
