package generators

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Compare is a compare measured by several generators, as this process
// takes its part: the generators agree on the plan, then measure each cell
// of each round together (a start barrier per cell and round, each cell
// merged as a Run merges); generator 0's result is the compare of the
// merged cells (its table, rounds, intervals and ranks from the merged
// figures), the others' their own shares.
type Compare struct {
	// Generators is how this process takes part (Resolved, Check-ed).
	Generators Config
	// Config is this generator's whole configuration, JSON-encoded at the
	// join: every generator's must be generator 0's.
	Config any
	// Plan is the compare to measure.
	Plan *compare.Plan
	// Observers see the compare (Log, Metrics, Progress); Measure is the
	// generators'.
	Observers compare.Observers
	// Summary makes the compare's summary of its result.
	Summary func(compare.Result) (*schema.Summary, error)
	// Output is the writer of a result of runs (a CLI notes what the
	// runs' errors mean under its table): generator 0's compare, or another
	// generator's own cells without a table (write).
	Output func(runs []schema.Run) output.Writer
	// Failures are the compare's own checks on generator 0's merged runs
	// (nil: none).
	Failures func(runs []schema.Run) error
}

// Do takes this process's part in the compare; its errors are Run.Do's.
func (c Compare) Do(ctx context.Context) (err error) {
	m, err := join(ctx, c.Generators, c.Config)
	if err != nil {
		return err
	}
	defer m.Close()
	defer abortOnFailure(ctx, m, &err)
	runCtx, cancel := m.Context(ctx)
	defer cancel()
	obs := c.Observers
	obs.Measure = c.cellMeasurer(m)
	res, runErr := c.Plan.Run(runCtx, obs)
	if ctx.Err() != nil {
		interrupted(m)
	}
	if runErr == nil && m.AbortErr() != nil {
		runErr = abortError(m.AbortErr())
	}
	sum, err := c.Summary(res)
	if err != nil {
		return err
	}
	sum.Interrupted = sum.Interrupted || runErr != nil
	if m.Index() != 0 {
		return c.share(ctx, m, res, sum, runErr)
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := c.write(res, sum, false); err != nil {
			return err
		}
	}
	var verdict Ending
	switch {
	case runErr != nil:
		verdict = verdictOf(runErr)
	case ctx.Err() != nil:
		return ErrInterrupted
	case c.Failures != nil:
		verdict = verdictOf(c.Failures(sum.Runs))
	}
	_ = m.PublishVerdict(context.WithoutCancel(ctx), verdict)
	return verdict.err()
}

// share: a generator other than 0 writes its own cells and ends with
// generator 0's verdict, or its own failure.
func (c Compare) share(ctx context.Context, m *Member, res compare.Result, sum *schema.Summary, runErr error) error {
	if len(sum.Runs) > 0 {
		if err := c.write(res, sum, true); err != nil {
			return err
		}
	}
	switch {
	case ctx.Err() != nil:
		return ErrInterrupted
	case runErr != nil:
		return runErr
	}
	return verdictErr(ctx, m)
}

// cellMeasurer measures each compare cell as one run of the generators:
// they join under a prefix of the cell and round's own (so each has its
// own start barrier, live view and results), measure it together, and
// generator 0 merges it. Generator 0 returns the merged cell, the others
// their own share once generator 0 has judged it. top is the compare's
// own membership: when it is aborted, the cell in progress is left out (no
// merge of it will come), not kept as one generator's share.
func (c Compare) cellMeasurer(top *Member) func(context.Context, *lab.Lab, lab.Config, lab.Observers, compare.At) (lab.Cell, error) {
	g := c.Generators
	return func(ctx context.Context, l *lab.Lab, cc lab.Config, obs lab.Observers, at compare.At) (cell lab.Cell, err error) {
		sub := g
		sub.Prefix = fmt.Sprintf("%s.c%dr%d", g.Prefix, at.Cell, at.Round)
		m, err := join(ctx, sub, cc)
		if err != nil {
			return lab.Cell{}, err
		}
		defer m.Close()
		defer abortOnFailure(ctx, m, &err)
		shareKeys(&cc, m)
		cellCtx, cancel := m.Context(ctx)
		defer cancel()
		sh, err := measureShare(cellCtx, m, l, cc, obs, g.Thresholds)
		if err != nil {
			return lab.Cell{}, abortedOr(m, err)
		}
		defer sh.close()
		if ctx.Err() != nil {
			if a := top.AbortErr(); a != nil {
				return lab.Cell{}, abortError(a)
			}
			interrupted(m) // a signal: the compare keeps the cell, marked interrupted
			return sh.cell, nil
		}
		sum, err := schema.NewSummary(time.Now(), cc)
		if err != nil {
			return lab.Cell{}, err
		}
		m.Settle(ctx)
		sum.Runs = []schema.Run{sh.cell.Run}
		sum.Interrupted = cutShort(&sum.Runs[0], m, cellCtx.Err() != nil)
		sh.cell.Run = sum.Runs[0]
		if m.Cut() {
			return ownShare(m, sh.cell), abortError(m.AbortErr())
		}
		if err := sh.publish(ctx, sum); err != nil {
			return ownShare(m, sh.cell), publishErr(ctx, m, err)
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
		return cell, mg.verdict.err()
	}
}

// ownShare is this generator's share as the cell a failed merge returns:
// generator 0 writes merged cells only, so a share it cannot merge is left
// out rather than written as the whole cell; the others keep theirs.
func ownShare(m *Member, share lab.Cell) lab.Cell {
	if m.Index() == 0 {
		return lab.Cell{}
	}
	return share
}

// write writes a result with c.Output: generator 0's compare (share false),
// or another generator's own cells (share true: no table).
func (c Compare) write(res compare.Result, sum *schema.Summary, share bool) error {
	w := c.Output(sum.Runs)
	if share {
		w.NoTable = true
		return w.Write(sum, lab.Logs(res.Cells))
	}
	return res.Write(w, sum)
}
