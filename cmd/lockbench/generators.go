package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/crossref"
	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Exit statuses of a run of several generators.
const (
	exitThreshold = 5 // the merged histograms broke a --threshold: every generator aborted
	exitLost      = 6 // a generator stopped reporting: every generator aborted
)

// checkGenerators checks --generators and its companions before anything
// starts.
func checkGenerators(g *generators.Config, cfg RunConfig, set *flagtag.Set) error {
	if err := g.Resolve(); err != nil {
		return fieldUsage(err, set)
	}
	if !g.On() {
		if len(g.Thresholds) > 0 {
			return usagef("--threshold: judged on the merged run of --generators N; a single run is gated by lockbench gate")
		}
		return nil
	}
	if _, err := gate.ParseThresholds(g.Thresholds); err != nil {
		return fieldUsage(err, set)
	}
	b, _ := backends.Lookup(cfg.Driver.Backend)
	switch {
	case !b.NeedsRedis:
		return usagef("--generators: backend %s has no Redis masters, whose TIME is the generators' common clock", cfg.Driver.Backend)
	case len(cfg.Topology.RedisAddrs) == 0:
		return usagef("--generators: give the masters every generator drives (--redis)")
	}
	return nil
}

// mastersTime reads master e's TIME: the generators' common clock.
func mastersTime(e redisconn.Endpoint) (generators.TimeSource, func()) {
	c := redis.NewClient(&redis.Options{Addr: e.Addr, Username: e.Username, Password: e.Password, DB: e.DB, TLSConfig: e.TLS,
		PoolSize: 1, DisableIdentity: true})
	return func(ctx context.Context) (time.Time, error) { return c.Time(ctx).Result() }, func() { c.Close() }
}

// runGenerator is `lockbench run --generators N`: this process measures
// its share of one run; generator 0 also merges and judges the whole.
func runGenerator(ctx context.Context, cfg RunConfig, g generators.Config) (err error) {
	plan, err := json.Marshal(struct {
		Run        RunConfig         `json:"run"`
		Generators generators.Config `json:"generators"`
	}{cfg, g})
	if err != nil {
		return err
	}
	m, err := generators.Join(ctx, g, plan)
	if err != nil {
		if ctx.Err() != nil {
			return errInterruptedEarly
		}
		return usageError{err}
	}
	defer m.Close()
	if cfg.Workload.Workload == "uncontended" {
		// Each worker's keys are its own: the generator's index keeps the
		// same worker of two generators off one key sequence.
		cfg.Workload.Prefix += "g" + strconv.Itoa(m.Index())
	}
	defer func() {
		// Tell the others at once why this generator ends, rather than
		// leaving them to find it gone.
		if err != nil && ctx.Err() == nil && m.AbortErr() == nil && !m.Finished() {
			m.Abort(&generators.AbortError{Kind: generators.Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d failed: %v", m.Index(), err)})
		}
	}()
	runCtx, cancel := m.Context(ctx)
	defer cancel()
	l, sum, closeLab, err := openLab(runCtx, &cfg, cfg)
	if err != nil {
		return abortedOr(m, err)
	}
	defer closeLab()
	ref, closeRef := mastersTime(l.Topo.Masters[0])
	defer closeRef()

	grants := crossref.NewLog(cfg.Workload.Workers)
	var start generators.Start
	pub := m.NewPublisher(runCtx)
	obs := lab.Observers{Log: cfg.log(), Metrics: cfg.metrics,
		Progress: &liveProgress{pub: pub},
		Barrier: func(ctx context.Context) (time.Time, error) {
			var err error
			start, err = m.Barrier(ctx, ref)
			return start.Local, err
		},
		Referee: func(r workloads.Referee) workloads.Referee { return generators.LogGrants(r, grants) },
	}
	if !cfg.Quiet {
		obs.Progress.(*liveProgress).inner = progressLine(cfg)
	}
	if m.Index() == 0 {
		ts, _ := gate.ParseThresholds(g.Thresholds) // checked
		go m.Watch(runCtx, cfg.Config.Name(), ts, cfg.log())
	}
	cell, err := l.Measure(runCtx, cfg.Config, obs)
	pub.Stop()
	if err != nil {
		return abortedOr(m, err)
	}
	sum.Runs = []results.Run{cell.Run}
	sum.Interrupted = runCtx.Err() != nil
	if ctx.Err() != nil {
		// Ctrl-C, or the pod being deleted: the others stop too, and this
		// generator keeps what it measured.
		m.Abort(&generators.AbortError{Kind: generators.Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d was interrupted", m.Index())})
		if err := writeShare(cfg, sum, cell); err != nil {
			return err
		}
		return errInterrupted
	}
	res, err := generatorResult(ctx, m, ref, start, sum, cell, grants)
	if err != nil {
		return err
	}
	if err := m.PublishResult(ctx, res); err != nil {
		return err
	}
	if m.Index() != 0 {
		return awaitVerdict(ctx, m, cfg, sum, cell)
	}
	return mergeGenerators(ctx, m, cfg, g)
}

// abortedOr is the run's abort, if it was aborted, else err.
func abortedOr(m *generators.Member, err error) error {
	if a := m.AbortErr(); a != nil {
		return abortError(a)
	}
	return err
}

func abortError(a *generators.AbortError) error {
	code := exitFailure
	switch a.Kind {
	case generators.Threshold:
		code = exitThreshold
	case generators.Lost:
		code = exitLost
	}
	return exitError{code, a.Error()}
}

// generatorResult is this generator's share: its own output directory,
// its grants on the masters' clock and its account of the window.
func generatorResult(ctx context.Context, m *generators.Member, ref generators.TimeSource, start generators.Start,
	sum *results.Summary, cell lab.Cell, grants *crossref.Log) (generators.Result, error) {
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	end, err := generators.MeasureOffset(endCtx, ref)
	if err != nil {
		end = start.Offset // the masters went away: the start's offset stands
	}
	host, _ := os.Hostname()
	total := cell.Registry.Total()
	info := generators.Info{Generator: m.Index(), Host: host, Pid: os.Getpid(),
		OffsetUS: float64(start.Offset.NS) / 1e3, OffsetErrorUS: float64(start.Offset.ErrorNS) / 1e3,
		EndOffsetUS: float64(end.NS) / 1e3, EndErrorUS: float64(end.ErrorNS) / 1e3,
		WindowStart: start.Offset.Masters(total.Start).UTC(), WindowEnd: end.Masters(total.End).UTC(),
		StartLateUS: float64(start.Late.Nanoseconds()) / 1e3, Cycles: cell.Run.Counts.Cycles, CyclesPerS: cell.Run.Throughput.CyclesPerS, Interrupted: cell.Run.Interrupted}
	mapping := crossref.Mapping{WallAtZero: total.Start.UnixNano() - grants.From(),
		At0: start.Offset.At.UnixNano(), Offset0: start.Offset.NS, Error0NS: start.Offset.ErrorNS,
		At1: end.At.UnixNano(), Offset1: end.NS, Error1NS: end.ErrorNS}
	var buf bytes.Buffer
	if err := crossref.OnMasters(m.Index(), grants.Grants(), mapping).Encode(&buf); err != nil {
		return generators.Result{}, err
	}
	files, err := outputFiles(sum, cell)
	if err != nil {
		return generators.Result{}, err
	}
	return generators.Result{Generator: m.Index(), Info: info, Files: files, Grants: buf.Bytes()}, nil
}

// outputFiles are what --out would hold for this generator alone.
func outputFiles(sum *results.Summary, cell lab.Cell) (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "lockbench-generator-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out")
	if err := (output.Writer{Out: out, NoTable: true}).Write(sum, lab.Logs([]lab.Cell{cell})); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}

// awaitVerdict: a generator other than 0 writes its own share where it was
// told to (--out, --json) and ends with generator 0's verdict.
func awaitVerdict(ctx context.Context, m *generators.Member, cfg RunConfig, sum *results.Summary, cell lab.Cell) error {
	if err := writeShare(cfg, sum, cell); err != nil {
		return err
	}
	v, ok := m.AwaitVerdict(ctx, 2*time.Minute)
	switch {
	case ok && v.Code == exitOK:
		return nil
	case ok:
		return exitError{v.Code, v.Message}
	case m.AbortErr() != nil:
		return abortError(m.AbortErr())
	case ctx.Err() != nil:
		return errInterrupted
	}
	return exitError{exitLost, "generators: generator 0 gave no verdict (lost)"}
}

// writeShare writes this generator's own measurement where it was told
// (--out, --json), without the table: generator 0's is the run's.
func writeShare(cfg RunConfig, sum *results.Summary, cell lab.Cell) error {
	w := cfg.Writer(cfg.out())
	w.NoTable = true
	return flagError(w.Write(sum, lab.Logs([]lab.Cell{cell})))
}
