package generators

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

	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/generators/crossref"
)

// collectWait bounds how long generator 0 waits for the others' results
// after its own: every generator living publishes within publishWait of
// its window's end (and the windows end together), one lost is noticed
// within its lease, so the bound is only met by a generator that holds
// its lease yet cannot publish.
const collectWait = 2 * publishWait

// Report is what a merged run of several generators adds under its
// "extra" key "generators".
type Report struct {
	Generators int `json:"generators"`
	// Thresholds are the --threshold expressions judged on the merged run.
	Thresholds []string `json:"thresholds,omitempty"`
	// Missing are the generators whose result never came (lost).
	Missing []int `json:"missing,omitempty"`
	// Aborted says why the run was cut short, if it was.
	Aborted *AbortError `json:"aborted,omitempty"`
	// WindowSkewUS is how far apart the generators' measured windows
	// started on the masters' clock as their offsets place them (latest −
	// earliest), WindowSkewBoundUS how far apart they may truly have
	// started: the two largest offset error bounds together.
	WindowSkewUS      float64 `json:"window_skew_us"`
	WindowSkewBoundUS float64 `json:"window_skew_bound_us"`
	// StartSpreadUS is how far apart the generators woke to start their
	// workers (latest − earliest StartLateUS): inside the warmup.
	StartSpreadUS float64 `json:"start_spread_us"`
	Each          []Info  `json:"each"`
	// CrossReferee judges grants across generators (crossref); its
	// violations are also in the run's counts.
	CrossReferee crossref.Judgement `json:"cross_referee"`
}

// merged is one run merged from its generators' results.
type merged struct {
	sum     *schema.Summary
	runLogs map[string]record.RunLogs
	rep     Report
	res     []Result
	verdict Ending // the abort's, a lost generator's or the thresholds'
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
func mergeShares(ctx context.Context, m *Member, g Config) (merged, error) {
	res, missing, err := m.Collect(ctx, collectWait)
	if err != nil {
		return merged{}, abortedOr(m, err)
	}
	sum, logs, rep, err := mergeResults(res, g.Generators)
	if err != nil {
		v := Ending{Code: ExitFailure, Message: err.Error()}
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
	switch {
	case rep.Aborted != nil:
		run.Interrupted = true
		run.CutShort = fmt.Sprintf("at %s: %s", clock(rep.Aborted.At), rep.Aborted.Reason)
	case len(missing) > 0:
		run.Interrupted = true
		run.CutShort = "without generator(s) " + firstFew(missing) + ": no result came"
	}
	sum.Interrupted = sum.Interrupted || run.Interrupted
	return merged{sum: sum, runLogs: logs, rep: rep, res: res, verdict: judgeMerged(*run, rep, g)}, nil
}

// logMerged is the merged run's line on log (nil: quiet).
func logMerged(log io.Writer, rep Report, n int) {
	if log == nil {
		return
	}
	fmt.Fprintf(log, "generators: %d of %d merged, windows started within %.0f µs of each other on the masters' clock (bound %.0f µs; wake-ups %.1f ms apart); across generators %d violations, %d undecidable of %d grants (error bound ≤ %.0f µs)\n",
		n, rep.Generators, rep.WindowSkewUS, rep.WindowSkewBoundUS, rep.StartSpreadUS/1e3, rep.CrossReferee.Violations, rep.CrossReferee.Undecidable, rep.CrossReferee.Grants, rep.CrossReferee.MaxErrorUS)
}

// GrantLogName is the file in an output directory holding generator i's
// grants on the masters' clock (crossref's encoding), for judging again
// or inspecting overlaps.
func GrantLogName(i int) string { return "grants-" + strconv.Itoa(i) + ".bin" }

func writeGrantLogs(dir string, res []Result) error {
	for _, r := range res {
		if err := schema.WriteFileAtomic(filepath.Join(dir, GrantLogName(r.Generator)), r.Grants); err != nil {
			return &output.Error{Dest: "out", Path: dir, Err: err}
		}
	}
	return nil
}

// judgeMerged is the run's verdict: an abort's, a missing generator's, or
// the thresholds' on the merged run.
func judgeMerged(run schema.Run, rep Report, g Config) Ending {
	switch {
	case rep.Aborted != nil:
		return verdictOf(abortError(rep.Aborted))
	case len(rep.Missing) > 0:
		return Ending{Code: ExitLost, Message: fmt.Sprintf("generators: no result from generator(s) %s", firstFew(rep.Missing))}
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
		return Ending{Code: ExitThreshold, Message: "generators: the merged run breaks --threshold " + strings.Join(broken, ", ")}
	}
	return Ending{}
}

// mergeResults merges the generators' output directories with
// rundir.Merge (histograms interval by interval, counts summed) and
// judges their grants across generators.
func mergeResults(res []Result, n int) (*schema.Summary, map[string]record.RunLogs, Report, error) {
	rep := Report{Generators: n}
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
func skewBound(each []Info) (bound, spread float64) {
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
