package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/schema"
)

// Run is everything a measuring command was told. It is written into every
// result. The cell itself is a Config; output.Options are how it is
// written and shown. Every tagged field is a flag (BindFlags), here and in
// both.
//
// Its methods are what a command does around what it measures, in order:
// Validate before any server starts, ClaimOut, StartMetrics (or Open,
// which also brings the servers up), Observers while measuring,
// ResultWriter and CheckFailures at the end; Measure is all of them for
// one cell (lockbench run). Their errors are lockbench's exit errors
// (internal/exit), bad input naming the flag (Flag).
type Run struct {
	Config
	output.Options
	// AllowFailures: a run where most attempts fail (exit 1 without it) or
	// that measured no progress (no grant, a stall: exit 4) is what was
	// wanted (a fault experiment by hand).
	AllowFailures bool `json:"allow_failures,omitempty" flag:"allow-failures" help:"exit 0 even when a run grants nothing, stalls or has more than half its attempts fail (implied by --fault)"`
	// stdout and stderr are the command's (SetIO, so tests run commands
	// in-process); nil is os.Stdout, os.Stderr.
	stdout, stderr io.Writer
	metrics        *prom.Exporter // set by StartMetrics; nil: no --metrics-addr
	outDir         *output.Dir    // --out claimed by ClaimOut; nil: not claimed
}

// NewRun is cell with the CLI's defaults.
func NewRun(cell Config) Run {
	return Run{Config: cell, Options: output.DefaultOptions()}
}

// DefaultRun is NewRun of DefaultConfig.
func DefaultRun() Run { return NewRun(DefaultConfig()) }

// SetIO takes the command's writers.
func (r *Run) SetIO(stdout, stderr io.Writer) { r.stdout, r.stderr = stdout, stderr }

// Stdout is where tables and stdout JSON go.
func (r *Run) Stdout() io.Writer {
	if r.stdout == nil {
		return os.Stdout
	}
	return r.stdout
}

// Stderr is where progress, phases and warnings go.
func (r *Run) Stderr() io.Writer {
	if r.stderr == nil {
		return os.Stderr
	}
	return r.stderr
}

// PhaseLog is where a cell's phases, fault events and warnings go: stderr,
// or nothing when quiet.
func (r *Run) PhaseLog() io.Writer { return r.Options.Log(r.Stderr()) }

// Metrics is the exporter StartMetrics serves (nil: no --metrics-addr).
func (r *Run) Metrics() *prom.Exporter { return r.metrics }

// Validate checks everything before any server starts, naming the flag.
func (r *Run) Validate() error {
	if err := r.Options.Validate(); err != nil {
		return BadInput(err)
	}
	// The flags that take addresses, URLs and credentials first: the
	// library's checks count the servers they name.
	if err := r.ResolveExternal(); err != nil {
		return BadInput(err)
	}
	if err := r.Config.Validate(); err != nil {
		return BadInput(err)
	}
	return r.CheckOutputs()
}

// outputPlan is r's outputs (--json, --out, and extra ones such as
// --cpuprofile) with the files it reads (the password and certificate
// files), to be checked together (output.Plan).
func (r *Run) outputPlan(extra ...output.Path) output.Plan {
	w := r.Writer(r.Stdout())
	w.Stderr = r.Stderr()
	p := w.Plan()
	p.Files = append(p.Files, extra...)
	p.Inputs = append(p.Inputs, r.Inputs()...)
	return p
}

// CheckOutputs is r's outputs, extra ones among them, checked with the
// files it reads: bad input naming the flag.
func (r *Run) CheckOutputs(extra ...output.Path) error {
	if err := r.outputPlan(extra...).Check(); err != nil {
		return exit.UsageError{Err: OutputError(err)}
	}
	return nil
}

// ClaimOut claims --out for the whole command (output.Writer.ClaimOut):
// bad input when another run holds it or it holds files lockbench did not
// write. The writer of the result takes the claim (ResultWriter); an
// earlier result being replaced is said on the log.
func (r *Run) ClaimOut() (release func(), err error) {
	w := r.Writer(r.Stdout())
	release, err = w.ClaimOut()
	if err != nil {
		return nil, exit.UsageError{Err: OutputError(err)}
	}
	r.outDir = w.Dir
	if w.Dir != nil && w.Dir.Earlier() {
		if log := r.PhaseLog(); log != nil {
			fmt.Fprintf(log, "replacing the earlier result lockbench wrote in %s\n", r.Out)
		}
	}
	return release, nil
}

// ResultWriter is the Writer of r's result of runs, printing on stdout
// (the errors under the table with what they mean), writing into the
// claimed --out.
func (r *Run) ResultWriter(stdout io.Writer, runs []schema.Run) output.Writer {
	w := r.Writer(stdout)
	w.Dir = r.outDir
	w.TableOptions.ErrorsNote = ErrorsNote(r.Config, runs, func(f string) string { return Flag(f) })
	return w
}

// StartMetrics serves --metrics-addr (nothing when unset) and gives r the
// exporter its cells report to. A bad or taken address is bad input, found
// before any server starts.
func (r *Run) StartMetrics() (stop func(), err error) {
	if r.metrics, stop, err = r.ServeMetrics(r.Stderr()); err != nil {
		return nil, BadInput(err)
	}
	return stop, nil
}

// Observers are a command's observers of one cell: phases and warnings on
// stderr, the metrics exporter, the progress line unless quiet.
func (r *Run) Observers() Observers {
	obs := Observers{Log: r.PhaseLog(), Metrics: r.metrics}
	if !r.Quiet {
		obs.Progress = output.NewProgress(r.Stderr(), 1, 0, false)
	}
	return obs
}

// Open starts what a command measures on: --metrics-addr, the servers of
// r's topology (phases on stderr unless quiet) and the summary of config
// with the lab's server versions and facts (Open). closeLab stops them.
func (r *Run) Open(ctx context.Context, config any) (l *Lab, sum *schema.Summary, closeLab func(), err error) {
	stopMetrics, err := r.StartMetrics()
	if err != nil {
		return nil, nil, nil, err
	}
	if l, sum, err = Open(ctx, r.Topology, r.PhaseLog(), config); err != nil {
		stopMetrics()
		return nil, nil, nil, UpError(ctx, err)
	}
	return l, sum, func() { l.Close(); stopMetrics() }, nil
}

// UpError classifies a failed Up: Ctrl-C during start-up is an
// interruption before anything was measured, an unreachable server given
// by flag is bad input, named by its flag.
func UpError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return exit.ErrInterruptedEarly
	case errors.Is(err, compose.ErrUnreachable), errors.Is(err, compose.ErrSameServer):
		return BadInput(err)
	}
	return err
}

// CheckFailures says loudly when a run measured no progress (no grant, no
// completed cycle, a stall: exit 4) or more than half of its attempts
// failed (exit 1), unless the run asked for failures (--allow-failures, or
// --fault): the package's CheckFailures, on stderr.
func (r *Run) CheckFailures(runs []schema.Run, stallsFail bool) error {
	err := CheckFailures(r.Stderr(), r.Config, runs, r.AllowFailures, stallsFail)
	var np *NoProgressError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &np):
		return exit.Error{Code: exit.NoProgress, Msg: err.Error() + " (--allow-failures accepts that)"}
	}
	return exit.Error{Code: exit.Failure, Msg: err.Error() + " (--allow-failures accepts that)"}
}

// Measure is one cell measured as `lockbench run` does: --out claimed, up,
// measured, written (what was measured, after Ctrl-C), down, and its
// failures judged.
func (r Run) Measure(ctx context.Context) error {
	release, err := r.ClaimOut()
	if err != nil {
		return err
	}
	defer release()
	l, sum, closeLab, err := r.Open(ctx, r)
	if err != nil {
		return err
	}
	defer closeLab()
	m, err := l.Measure(ctx, r.Config, r.Observers())
	if err != nil {
		if ctx.Err() != nil {
			return exit.ErrInterruptedEarly // e.g. while the driver dialed
		}
		return err
	}
	sum.Runs = []schema.Run{m.Run}
	sum.Interrupted = ctx.Err() != nil
	if err := OutputError(r.ResultWriter(r.Stdout(), sum.Runs).Write(sum, Logs([]Cell{m}))); err != nil {
		return err
	}
	if sum.Interrupted {
		return exit.ErrInterrupted
	}
	return r.CheckFailures(sum.Runs, true)
}
