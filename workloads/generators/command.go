package generators

import (
	"context"
	"errors"
	"io"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// CheckFlags checks c (--generators and its companions, bound in set)
// against the cell before anything starts: bad input naming the flag.
func (c *Config) CheckFlags(cell lab.Config, set *flagtag.Set) error {
	if err := c.CheckGiven(flagtag.Given(set.FlagSet())); err != nil {
		return lab.BadInput(err, set)
	}
	if err := c.Check(cell); err != nil {
		return lab.BadInput(err, set)
	}
	return nil
}

// MeasureRun is `lockbench run --generators N`: this process measures
// its share of r's run; generator 0 also merges and judges the whole (r's
// CheckFailures). Its errors are lockbench's exit errors (internal/exit).
func MeasureRun(ctx context.Context, r lab.Run, g Config) error {
	stopMetrics, err := r.StartMetrics()
	if err != nil {
		return err
	}
	defer stopMetrics()
	run := Run{
		Generators: g,
		Plan: struct {
			Run        lab.Run `json:"run"`
			Generators Config  `json:"generators"`
		}{r, g},
		Cell: r.Config,
		Open: func(ctx context.Context) (*lab.Lab, *schema.Summary, func(), error) {
			l, sum, err := lab.Open(ctx, r.Topology, r.PhaseLog(), r)
			if err != nil {
				return nil, nil, nil, lab.UpError(ctx, err)
			}
			return l, sum, func() { l.Close() }, nil
		},
		Observers: r.Observers(),
		Output:    r.Writer(r.Stdout()),
		Failures:  func(runs []schema.Run) error { return r.CheckFailures(runs, true) },
	}
	return exitError(ctx, run.Do(ctx))
}

// MeasureCompare is `lockbench compare --generators N`: generator 0
// writes the compare of the merged cells, the others their own shares.
func MeasureCompare(ctx context.Context, stdout io.Writer, cc compare.Command, p *compare.Plan, g Config) error {
	release, err := cc.Base.ClaimOut()
	if err != nil {
		return err
	}
	defer release()
	stopMetrics, err := cc.Base.StartMetrics()
	if err != nil {
		return err
	}
	defer stopMetrics()
	c := Compare{
		Generators: g,
		Config: struct {
			Compare    compare.Command `json:"compare"`
			Generators Config          `json:"generators"`
		}{cc, g},
		Plan:      p,
		Observers: cc.Observers(p),
		Summary:   func(res compare.Result) (*schema.Summary, error) { return res.Summary(cc) },
		Output:    func(runs []schema.Run) output.Writer { return cc.Base.ResultWriter(stdout, runs) },
		Failures:  cc.CheckFailures,
	}
	return exitError(ctx, c.Do(ctx))
}

// exitError is a generators run's end as lockbench ends: a refusal at the
// join is bad input, a signal an interruption.
func exitError(ctx context.Context, err error) error {
	var je *JoinError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &je):
		return exit.UsageError{Err: je}
	case errors.Is(err, ErrInterrupted):
		return exit.ErrInterrupted
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return exit.ErrInterruptedEarly
	}
	return lab.OutputError(err)
}
