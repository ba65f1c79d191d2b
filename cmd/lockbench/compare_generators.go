package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/internal/results/output"
	"github.com/lockbench/lockbench/internal/workloads/generators"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// checkCompareGenerators checks --generators with compare's plan: every
// cell drives the masters every generator reaches, and what one process
// measures alone (a ceiling, a delay line of its own) is refused.
func checkCompareGenerators(g *generators.Config, cc compareConfig, p *compare.Plan, set *flagtag.Set) error {
	if err := checkGenerators(g, cc.Base, set); err != nil || !g.On() {
		return err
	}
	switch {
	case cc.Ceiling:
		return usagef("--ceiling: not with --generators (each generator would run redis-benchmark on its own)")
	case len(cc.RTTs) > 0:
		return usagef("--rtt: not with --generators (each generator would add its own delay line)")
	}
	for _, c := range p.Cells {
		if b, ok := backends.Lookup(c.Config.Driver.Backend); ok && !b.Uses(backends.Redis) {
			return usagef("--baselines %s: not with --generators (every cell must drive the masters given by --redis)", c.Config.Driver.Backend)
		}
	}
	return nil
}

// runCompareGenerators is `lockbench compare --generators N`: the N
// processes agree on the plan, then measure each cell of each round
// together (one start barrier per cell and round); generator 0 merges each
// cell as run does and writes the compare of the merged cells (its table,
// rounds, intervals and ranks from the merged figures). The others write
// their own share where they were told (--out, --json) and end with
// generator 0's verdict.
func runCompareGenerators(ctx context.Context, stdout io.Writer, cc compareConfig, p *compare.Plan, g generators.Config) (err error) {
	m, err := joinGenerators(ctx, g, struct {
		Compare    compareConfig     `json:"compare"`
		Generators generators.Config `json:"generators"`
	}{cc, g})
	if err != nil {
		return err
	}
	defer m.Close()
	defer abortOnFailure(ctx, m, &err)
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
	runCtx, cancel := m.Context(ctx)
	defer cancel()
	obs := compare.Observers{Log: cc.Base.log(), Metrics: cc.Base.metrics, Measure: cellMeasurer(g, m)}
	if !cc.Base.Quiet {
		obs.Progress = output.NewProgress(cc.Base.errOut(), len(p.Cells)*p.Config.Repeat, cc.Base.Workload.Warmup+cc.Base.Workload.Duration)
	}
	res, runErr := p.Run(runCtx, obs)
	if ctx.Err() != nil {
		interrupted(m)
	}
	if runErr == nil && m.AbortErr() != nil {
		runErr = abortError(m.AbortErr())
	}
	sum, err := res.Summary(cc)
	if err != nil {
		return err
	}
	sum.Interrupted = sum.Interrupted || runErr != nil
	if m.Index() != 0 {
		return compareShare(ctx, m, stdout, cc, res, sum, runErr)
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := flagError(res.Write(cc.Base.writer(stdout), sum)); err != nil {
			return err
		}
	}
	verdict := generators.Verdict{}
	switch {
	case runErr != nil:
		verdict = verdictOf(runErr)
	case ctx.Err() != nil:
		return errInterrupted
	default:
		explainErrors(cc.Base.errOut(), cc.Base, sum.Runs)
		verdict = verdictOf(compareFailures(cc.Base.errOut(), cc.Base, sum.Runs))
	}
	_ = m.PublishVerdict(context.WithoutCancel(ctx), verdict)
	if verdict.Code != exitOK {
		return exitError{verdict.Code, verdict.Message}
	}
	return nil
}

// compareShare: a generator other than 0 writes its own cells where it was
// told (--out, --json; no table: generator 0's is the compare's) and ends
// with generator 0's verdict, or its own failure.
func compareShare(ctx context.Context, m *generators.Member, stdout io.Writer, cc compareConfig, res compare.Result, sum *schema.Summary, runErr error) error {
	w := cc.Base.writer(stdout)
	w.NoTable = true
	if len(sum.Runs) > 0 {
		if err := flagError(w.Write(sum, lab.Logs(res.Cells))); err != nil {
			return err
		}
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case runErr != nil:
		return runErr
	}
	return verdictErr(ctx, m)
}

// cellMeasurer measures each compare cell as one run of g's generators:
// they join under a prefix of the cell and round's own (so each has its
// own start barrier, live view and results), measure it together, and
// generator 0 merges it. Generator 0 returns the merged cell, the others
// their own share once generator 0 has judged it. top is the compare's
// own membership: when it is aborted, the cell in progress is left out (no
// merge of it will come), not kept as one generator's share.
func cellMeasurer(g generators.Config, top *generators.Member) func(context.Context, *lab.Lab, lab.Config, lab.Observers, compare.At) (lab.Cell, error) {
	return func(ctx context.Context, l *lab.Lab, c lab.Config, obs lab.Observers, at compare.At) (cell lab.Cell, err error) {
		sub := g
		sub.Prefix = fmt.Sprintf("%s.c%dr%d", g.Prefix, at.Cell, at.Round)
		m, err := joinGenerators(ctx, sub, c)
		if err != nil {
			return lab.Cell{}, err
		}
		defer m.Close()
		defer abortOnFailure(ctx, m, &err)
		shareKeys(&c, m)
		cellCtx, cancel := m.Context(ctx)
		defer cancel()
		sh, err := measureShare(cellCtx, m, l, c, obs, g.Thresholds)
		if err != nil {
			return lab.Cell{}, abortedOr(m, err)
		}
		defer sh.close()
		if ctx.Err() != nil {
			if a := top.AbortErr(); a != nil {
				return lab.Cell{}, abortError(a)
			}
			interrupted(m) // Ctrl-C: the compare keeps the cell, marked interrupted
			return sh.cell, nil
		}
		sum, err := schema.NewSummary(time.Now(), c)
		if err != nil {
			return lab.Cell{}, err
		}
		sum.Runs, sum.Interrupted = []schema.Run{sh.cell.Run}, cellCtx.Err() != nil
		if err := sh.publish(ctx, sum); err != nil {
			return lab.Cell{}, err
		}
		if m.Index() != 0 {
			return sh.cell, verdictErr(ctx, m)
		}
		mg, err := mergeShares(ctx, m, sub)
		if err != nil {
			return lab.Cell{}, err
		}
		logMerged(obs.Log, mg.rep, len(mg.res))
		run := mg.sum.Runs[0]
		cell = lab.Cell{Run: run, Merged: mg.runLogs[record.LogName(run)]}
		_ = m.PublishVerdict(context.WithoutCancel(ctx), mg.verdict)
		if mg.verdict.Code != exitOK {
			return cell, exitError{mg.verdict.Code, mg.verdict.Message}
		}
		return cell, nil
	}
}
