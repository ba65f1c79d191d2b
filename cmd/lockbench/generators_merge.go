package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/internal/results/crossref"
	"github.com/lockbench/lockbench/internal/results/gate"
	"github.com/lockbench/lockbench/internal/results/output"
	"github.com/lockbench/lockbench/internal/results/rundir"
	"github.com/lockbench/lockbench/internal/workloads/generators"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// GeneratorsReport is what a merged run of several generators adds under
// its "extra" key "generators".
type GeneratorsReport struct {
	Generators int `json:"generators"`
	// Thresholds are the --threshold expressions judged on the merged run.
	Thresholds []string `json:"thresholds,omitempty"`
	// Missing are the generators whose result never came (lost).
	Missing []int `json:"missing,omitempty"`
	// Aborted says why the run was cut short, if it was.
	Aborted *generators.AbortError `json:"aborted,omitempty"`
	// WindowSkewUS is how far apart the generators' measured windows
	// started on the masters' clock as their offsets place them (latest −
	// earliest), WindowSkewBoundUS how far apart they may truly have
	// started: the two largest offset error bounds together.
	WindowSkewUS      float64 `json:"window_skew_us"`
	WindowSkewBoundUS float64 `json:"window_skew_bound_us"`
	// StartSpreadUS is how far apart the generators woke to start their
	// workers (latest − earliest StartLateUS): inside the warmup.
	StartSpreadUS float64           `json:"start_spread_us"`
	Each          []generators.Info `json:"each"`
	// CrossReferee judges grants across generators (internal/results/crossref);
	// its violations are also in the run's counts.
	CrossReferee crossref.Verdict `json:"cross_referee"`
}

// mergeGenerators is generator 0's end: collect every generator's result
// (or note it lost), merge them into one run as lockbench merge would,
// show it on the merged series (final, nil: none), judge the grants
// across generators and the thresholds, write it, and tell everyone the
// verdict.
func mergeGenerators(ctx context.Context, m *generators.Member, cfg RunConfig, g generators.Config, final func(generators.Merged)) error {
	mg, err := mergeShares(ctx, m, g)
	if err != nil {
		return err
	}
	if final != nil {
		final(generators.Merged{Reporting: len(mg.res), Run: mg.sum.Runs[0]})
	}
	werr := flagError(cfg.Writer(cfg.out()).Write(mg.sum, mg.logs()))
	if werr == nil && cfg.Out != "" {
		werr = flagError(writeGrantLogs(cfg.Out, mg.res))
	}
	logMerged(cfg.log(), mg.rep, len(mg.res))
	verdict := mg.verdict
	if verdict.Code == exitOK && werr == nil {
		verdict = failuresVerdict(cfg, mg.sum.Runs)
	}
	_ = m.PublishVerdict(context.WithoutCancel(ctx), verdict)
	if werr != nil {
		return werr
	}
	if verdict.Code != exitOK {
		return exitError{verdict.Code, verdict.Message}
	}
	return nil
}

// merged is one run merged from its generators' results.
type merged struct {
	sum     *schema.Summary
	runLogs map[string]record.RunLogs
	rep     GeneratorsReport
	res     []generators.Result
	verdict generators.Verdict // the abort's, a lost generator's or the thresholds'
}

func (mg merged) logs() map[string]output.Logs {
	l := make(map[string]output.Logs, len(mg.runLogs))
	for name, rl := range mg.runLogs {
		l[name] = output.MergedLogs(rl)
	}
	return l
}

// mergeShares collects every generator's result (or notes it lost) and
// merges them into one run as lockbench merge would, the grants across
// generators judged and their violations counted in. A failure to merge is
// published as the verdict.
func mergeShares(ctx context.Context, m *generators.Member, g generators.Config) (merged, error) {
	res, missing, err := m.Collect(ctx, time.Minute)
	if err != nil {
		return merged{}, abortedOr(m, err)
	}
	sum, logs, rep, err := mergeResults(res, g.Generators)
	if err != nil {
		v := generators.Verdict{Code: exitFailure, Message: err.Error()}
		_ = m.PublishVerdict(context.WithoutCancel(ctx), v)
		return merged{}, err
	}
	rep.Missing, rep.Aborted, rep.Thresholds = missing, m.AbortErr(), g.Thresholds
	run := &sum.Runs[0]
	if run.Extra == nil {
		run.Extra = map[string]any{}
	}
	run.Extra["generators"] = rep
	run.Counts.Violations += rep.CrossReferee.Violations
	sum.Interrupted = sum.Interrupted || rep.Aborted != nil || len(missing) > 0
	return merged{sum: sum, runLogs: logs, rep: rep, res: res, verdict: judgeMerged(*run, rep, g)}, nil
}

// logMerged is the merged run's line on log (nil: quiet).
func logMerged(log io.Writer, rep GeneratorsReport, n int) {
	if log == nil {
		return
	}
	fmt.Fprintf(log, "generators: %d of %d merged, windows started within %.0f µs of each other on the masters' clock (bound %.0f µs; wake-ups %.1f ms apart); across generators %d violations, %d undecidable of %d grants (error bound ≤ %.0f µs)\n",
		n, rep.Generators, rep.WindowSkewUS, rep.WindowSkewBoundUS, rep.StartSpreadUS/1e3, rep.CrossReferee.Violations, rep.CrossReferee.Undecidable, rep.CrossReferee.Grants, rep.CrossReferee.MaxErrorUS)
}

// failuresVerdict is the verdict of run's own failure checks on runs.
func failuresVerdict(cfg RunConfig, runs []schema.Run) generators.Verdict {
	return verdictOf(checkFailures(cfg.errOut(), cfg, runs, true))
}

// GrantLogName is the file in --out holding generator i's grants on the
// masters' clock (internal/results/crossref's encoding), for judging again or
// inspecting overlaps.
func GrantLogName(i int) string { return "grants-" + strconv.Itoa(i) + ".bin" }

func writeGrantLogs(dir string, res []generators.Result) error {
	for _, r := range res {
		if err := schema.WriteFileAtomic(filepath.Join(dir, GrantLogName(r.Generator)), r.Grants); err != nil {
			return &output.Error{Dest: "out", Path: dir, Err: err}
		}
	}
	return nil
}

// judgeMerged is the run's verdict: an abort's, a missing generator's, or
// the thresholds' on the merged run.
func judgeMerged(run schema.Run, rep GeneratorsReport, g generators.Config) generators.Verdict {
	switch {
	case rep.Aborted != nil:
		return generators.Verdict{Code: abortError(rep.Aborted).(exitError).code, Message: rep.Aborted.Error()}
	case len(rep.Missing) > 0:
		return generators.Verdict{Code: exitLost, Message: fmt.Sprintf("generators: no result from generator(s) %s", ints(rep.Missing))}
	}
	ts, _ := gate.ParseThresholds(g.Thresholds)
	var broken []string
	for _, t := range ts {
		v, err := gate.Metric(run, t.Metric)
		if err != nil || !t.Holds(v) {
			broken = append(broken, fmt.Sprintf("%s (%g)", t.Expr, v))
		}
	}
	if len(broken) > 0 {
		return generators.Verdict{Code: exitThreshold, Message: "generators: the merged run breaks --threshold " + strings.Join(broken, ", ")}
	}
	return generators.Verdict{}
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// mergeResults merges the generators' output directories with
// rundir.Merge (histograms interval by interval, counts summed) and
// judges their grants across generators.
func mergeResults(res []generators.Result, n int) (*schema.Summary, map[string]record.RunLogs, GeneratorsReport, error) {
	rep := GeneratorsReport{Generators: n}
	if len(res) == 0 {
		return nil, nil, rep, fmt.Errorf("generators: no generator's result came in")
	}
	dir, err := os.MkdirTemp("", "lockbench-merge-")
	if err != nil {
		return nil, nil, rep, err
	}
	defer os.RemoveAll(dir)
	var dirs []*rundir.RunDir
	var timed []crossref.Timed
	var first, last time.Time
	for i, r := range res {
		d := filepath.Join(dir, strconv.Itoa(r.Generator))
		if err := os.Mkdir(d, 0o700); err != nil {
			return nil, nil, rep, err
		}
		for name, b := range r.Files {
			if err := os.WriteFile(filepath.Join(d, filepath.Base(name)), b, 0o600); err != nil {
				return nil, nil, rep, err
			}
		}
		rd, err := rundir.ReadRunDir(d)
		if err != nil {
			return nil, nil, rep, fmt.Errorf("generators: generator %d's result: %w", r.Generator, err)
		}
		dirs = append(dirs, rd)
		t, err := crossref.Decode(r.Grants)
		if err != nil {
			return nil, nil, rep, fmt.Errorf("generators: generator %d's grants: %w", r.Generator, err)
		}
		timed = append(timed, t)
		rep.Each = append(rep.Each, r.Info)
		if s := r.Info.WindowStart; i == 0 || s.Before(first) {
			first = s
		}
		if s := r.Info.WindowStart; i == 0 || s.After(last) {
			last = s
		}
	}
	rep.WindowSkewUS = float64(last.Sub(first).Nanoseconds()) / 1e3
	rep.WindowSkewBoundUS, rep.StartSpreadUS = skewBound(rep.Each)
	rep.CrossReferee = crossref.Judge(timed)
	if len(dirs) == 1 {
		d := dirs[0]
		return d.Summary, d.Logs, rep, nil
	}
	sum, logs, err := rundir.Merge(dirs, false)
	if err != nil {
		return nil, nil, rep, err
	}
	serverCPUOfTheRun(&sum.Runs[0], res[0].Info.Cycles)
	return sum, logs, rep, nil
}

// serverCPUOfTheRun makes the merged run's server CPU per cycle the
// run's: the merged cost is the first generator's, whose masters' CPU over
// the common window is every generator's load but was divided by its own
// cycles only.
func serverCPUOfTheRun(run *schema.Run, firstCycles int64) {
	if c := run.Cost; c != nil && c.ServerCPUUSPerCycle > 0 && run.Counts.Cycles > 0 {
		c.ServerCPUUSPerCycle *= float64(firstCycles) / float64(run.Counts.Cycles)
	}
}

// skewBound is the two largest offset error bounds together, and the
// spread of the generators' wake-ups.
func skewBound(each []generators.Info) (bound, spread float64) {
	var e1, e2 float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range each {
		b := max(e.OffsetErrorUS, e.EndErrorUS)
		if b > e1 {
			e1, e2 = b, e1
		} else if b > e2 {
			e2 = b
		}
		lo, hi = min(lo, e.StartLateUS), max(hi, e.StartLateUS)
	}
	if len(each) < 2 {
		return 0, 0
	}
	return e1 + e2, hi - lo
}

// liveProgress publishes this generator's totals once a second for the
// merged view, and shows the progress line (inner) if there is one.
type liveProgress struct {
	pub   *generators.Publisher
	inner lab.Progress
}

func (p *liveProgress) Begin(name string, warmup time.Duration) {
	if p.inner != nil {
		p.inner.Begin(name, warmup)
	}
}

func (p *liveProgress) Tick(elapsed time.Duration, iv, total *record.Interval) {
	p.pub.Offer(generators.NewSnapshot(elapsed, total))
	if p.inner != nil {
		p.inner.Tick(elapsed, iv, total)
	}
}

func (p *liveProgress) End(run schema.Run) {
	if p.inner != nil {
		p.inner.End(run)
	}
}

// progressLine is the CLI's progress line on stderr.
func progressLine(cfg RunConfig) lab.Progress { return output.NewProgress(cfg.errOut(), 1, 0) }
