package safety

import (
	"context"
	"io"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Request is a safety sweep as a command line gives it: the sweep's
// config and where its points go. Its methods are the command's lifetime:
// Check before anything starts, Measure.
type Request struct {
	Config
	JSON string `json:"-" flag:"json" value:"FILE" help:"write the points and the sweep's config as JSON to FILE (- for stdout)"`
	HTML string `json:"-" flag:"html" value:"FILE" help:"write the points' plot (violations per 10⁶ grants against fault ÷ TTL) as HTML to FILE"`
}

// Check validates the sweep (bad input naming the flag bound in flags)
// and proves its outputs can be written; the Outputs print on stdout.
func (r *Request) Check(stdout, stderr io.Writer, flags *flagtag.Set) (Outputs, error) {
	if err := r.Validate(); err != nil {
		return Outputs{}, lab.BadInput(err, flags)
	}
	out := Outputs{JSON: r.JSON, HTML: r.HTML, Stdout: stdout}
	if err := out.Check(stderr); err != nil {
		return Outputs{}, exit.UsageError{Err: lab.OutputError(err)}
	}
	return out, nil
}

// Measure measures the sweep with measure (Run, or a stand-in), prints its
// table (on stderr when the JSON takes stdout) and writes out: every point
// measured, after a failure or Ctrl-C those done. Its errors are
// lockbench's exit errors (internal/exit).
func (r Request) Measure(ctx context.Context, out Outputs, stderr io.Writer, measure func(context.Context, Config, io.Writer) (Result, error)) error {
	res, err := measure(ctx, r.Config, stderr)
	switch {
	case err != nil && len(res.Points) == 0:
		return lab.UpError(ctx, err)
	case res.Interrupted && len(res.Points) == 0:
		return exit.ErrInterruptedEarly
	}
	tables := out.Stdout
	if r.JSON == "-" {
		tables = stderr
	}
	WriteTable(tables, res.Points)
	if werr := lab.OutputError(out.Write(res)); werr != nil {
		return werr
	}
	switch {
	case err != nil:
		return err
	case res.Interrupted:
		return exit.ErrInterrupted
	}
	return nil
}
