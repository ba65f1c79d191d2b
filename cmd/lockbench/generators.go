package main

import (
	"context"
	"errors"
	"io"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Exit statuses of a run of several generators (generators' own).
const (
	exitThreshold = generators.ExitThreshold
	exitLost      = generators.ExitLost
	exitCoord     = generators.ExitCoordination
)

// runGenerator is `lockbench run --generators N`: this process measures
// its share of one run; generator 0 also merges and judges the whole.
func runGenerator(ctx context.Context, cfg RunConfig, g generators.Config) error {
	stopMetrics, err := startMetrics(&cfg)
	if err != nil {
		return err
	}
	defer stopMetrics()
	r := generators.Run{
		Generators: g,
		Plan: struct {
			Run        RunConfig         `json:"run"`
			Generators generators.Config `json:"generators"`
		}{cfg, g},
		Cell: cfg.Config,
		Open: func(ctx context.Context) (*lab.Lab, *schema.Summary, func(), error) {
			l, sum, err := lab.Open(ctx, cfg.Topology, cfg.log(), cfg)
			if err != nil {
				return nil, nil, nil, upError(ctx, err)
			}
			return l, sum, func() { l.Close() }, nil
		},
		Observers: cfg.observers(),
		Output:    cfg.Writer(cfg.out()),
		Failures:  func(runs []schema.Run) error { return checkFailures(cfg.errOut(), cfg, runs, true) },
	}
	return generatorsError(ctx, r.Do(ctx))
}

// runCompareGenerators is `lockbench compare --generators N`: generator 0
// writes the compare of the merged cells, the others their own shares.
func runCompareGenerators(ctx context.Context, stdout io.Writer, cc compareConfig, p *compare.Plan, g generators.Config) error {
	release, err := cc.Base.claimOut()
	if err != nil {
		return err
	}
	defer release()
	stopMetrics, err := startMetrics(&cc.Base)
	if err != nil {
		return err
	}
	defer stopMetrics()
	c := generators.Compare{
		Generators: g,
		Config: struct {
			Compare    compareConfig     `json:"compare"`
			Generators generators.Config `json:"generators"`
		}{cc, g},
		Plan:      p,
		Observers: compareObservers(cc, p),
		Summary:   func(res compare.Result) (*schema.Summary, error) { return res.Summary(cc) },
		Output:    func(runs []schema.Run) output.Writer { return cc.Base.writer(stdout, runs) },
		Failures:  func(runs []schema.Run) error { return compareFailures(cc.Base.errOut(), cc.Base, runs) },
	}
	return generatorsError(ctx, c.Do(ctx))
}

// checkGenerators checks --generators and its companions against the cell
// before anything starts.
func checkGenerators(g *generators.Config, cell lab.Config, set *flagtag.Set) error {
	if err := g.CheckGiven(flagtag.Given(set.FlagSet())); err != nil {
		return fieldUsage(err, set)
	}
	if err := g.Check(cell); err != nil {
		return fieldUsage(err, set)
	}
	return nil
}

// generatorsError is a generators run's end as the CLI ends: a refusal at
// the join is bad input, a signal an interruption.
func generatorsError(ctx context.Context, err error) error {
	var je *generators.JoinError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &je):
		return usageError{je}
	case errors.Is(err, generators.ErrInterrupted):
		return errInterrupted
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return errInterruptedEarly
	}
	return flagError(err)
}
