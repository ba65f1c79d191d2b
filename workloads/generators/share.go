package generators

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/generators/crossref"
	"github.com/lockbench/lockbench/workloads/lab"
)

// share is one cell as this generator measured it, with what generator 0
// needs to merge it.
type share struct {
	m      *Member
	cell   lab.Cell
	ref    TimeSource
	start  Start
	grants *crossref.Log
	close  func()
	// final shows the merged run on generator 0's merged series once the
	// results are merged (nil on the others and without a metrics
	// exporter); it ends the live view first.
	final func(Merged)
}

// mastersTime reads master e's TIME: the generators' common clock.
func mastersTime(e redisconn.Endpoint) (TimeSource, func()) {
	c := redis.NewClient(&redis.Options{Addr: e.Addr, Username: e.Username, Password: e.Password, DB: e.DB, TLSConfig: e.TLS,
		PoolSize: 1, DisableIdentity: true})
	return func(ctx context.Context) (time.Time, error) { return c.Time(ctx).Result() }, func() { c.Close() }
}

// shareKeys: in the uncontended workload each worker's keys are its own,
// so the generator's index keeps the same worker of two generators off one
// key sequence.
func shareKeys(c *lab.Config, m *Member) {
	if c.Workload.Workload == "uncontended" {
		c.Workload.Prefix += "g" + strconv.Itoa(m.Index())
	}
}

// measureShare measures c on l as this generator's share of the run: from
// the common start, every grant logged for the referee across generators,
// the totals published once a second; generator 0 also shows the merged
// figures and judges the live thresholds on them.
func measureShare(ctx context.Context, m *Member, l *lab.Lab, c lab.Config, obs lab.Observers, thresholds []string) (*share, error) {
	ref, closeRef := mastersTime(l.Topo.Masters[0])
	sh := &share{m: m, ref: ref, grants: crossref.NewLog(c.Workload.Workers), close: closeRef}
	pub := m.NewPublisher(ctx)
	obs.Progress = &liveProgress{pub: pub, inner: obs.Progress}
	obs.Barrier = func(ctx context.Context) (time.Time, error) {
		var err error
		sh.start, err = m.Barrier(ctx, ref)
		return sh.start.Local, err
	}
	obs.Referee = func(r workloads.Judge) workloads.Judge { return LogGrants(r, sh.grants) }
	var view *View // generator 0's
	if m.Index() == 0 {
		ts, _ := gate.ParseThresholds(thresholds) // checked by Check
		show := mergedMetrics(obs.Metrics, l, c, m.Generators())
		view = m.StartWatch(ctx, c.Name(), ts, obs.Log, show)
		if show != nil {
			sh.final = func(mg Merged) { view.Stop(); show(mg) }
		}
	}
	cell, err := l.Measure(ctx, c, obs)
	view.EndWindow()
	if err == nil {
		// The window's totals, so the merged series reach them before the
		// results are merged.
		pub.Offer(NewSnapshot(time.Duration(cell.Run.DurationS*float64(time.Second)), cell.Registry.Total()))
	}
	pub.Stop()
	if err != nil || sh.final == nil {
		// Past the window the live view only shows: with nothing to show
		// it ends here.
		view.Stop()
	}
	if err != nil {
		closeRef()
		return nil, err
	}
	sh.cell = cell
	sh.close = func() { view.Stop(); closeRef() }
	return sh, nil
}

// publish hands this generator's result (sum holding its cell) to
// generator 0.
func (sh *share) publish(ctx context.Context, sum *schema.Summary) error {
	res, err := sh.result(ctx, sum)
	if err != nil {
		return err
	}
	return sh.m.PublishResult(ctx, res)
}

// result is this generator's share: its own output directory, its grants
// on the masters' clock and its account of the window.
func (sh *share) result(ctx context.Context, sum *schema.Summary) (Result, error) {
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	start := sh.start
	end, err := MeasureOffset(endCtx, sh.ref)
	if err != nil {
		end = start.Offset // the masters went away: the start's offset stands
	}
	host, _ := os.Hostname()
	total := sh.cell.Registry.Total()
	run := sh.cell.Run
	info := Info{Generator: sh.m.Index(), Host: host, Pid: os.Getpid(),
		OffsetUS: float64(start.Offset.NS) / 1e3, OffsetErrorUS: float64(start.Offset.ErrorNS) / 1e3,
		EndOffsetUS: float64(end.NS) / 1e3, EndErrorUS: float64(end.ErrorNS) / 1e3,
		WindowStart: start.Offset.Masters(total.Start).UTC(), WindowEnd: end.Masters(total.End).UTC(),
		StartLateUS: float64(start.Late.Nanoseconds()) / 1e3, Cycles: run.Counts.Cycles, CyclesPerS: run.Throughput.CyclesPerS, Interrupted: run.Interrupted}
	mapping := crossref.Mapping{WallAtZero: total.Start.UnixNano() - sh.grants.From(),
		At0: start.Offset.At.UnixNano(), Offset0: start.Offset.NS, Error0NS: start.Offset.ErrorNS,
		At1: end.At.UnixNano(), Offset1: end.NS, Error1NS: end.ErrorNS}
	var buf bytes.Buffer
	if err := crossref.OnMasters(sh.m.Index(), sh.grants.Grants(), mapping).Encode(&buf); err != nil {
		return Result{}, err
	}
	files, err := outputFiles(sum, sh.cell)
	if err != nil {
		return Result{}, err
	}
	return Result{Generator: sh.m.Index(), Info: info, Files: files, Grants: buf.Bytes()}, nil
}

// outputFiles are what an output directory would hold for this generator
// alone.
func outputFiles(sum *schema.Summary, cell lab.Cell) (map[string][]byte, error) {
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

// mergedMetrics shows generator 0's merged view of cell c on the metrics
// exporter, beside this generator's own series; nil when there is none.
func mergedMetrics(e *prom.Exporter, l *lab.Lab, c lab.Config, n int) func(Merged) {
	if e == nil {
		return nil
	}
	mc := e.Merged(prom.Labels{Backend: c.Driver.Backend, Client: c.Driver.Client, Mux: c.Driver.Mux,
		Workload: c.Workload.Workload, Masters: l.Masters(c.Driver)}, n)
	return func(mg Merged) {
		mc.Set(prom.Merged{Reporting: mg.Reporting, Cycles: mg.Run.Counts.Cycles, Attempts: mg.Run.Counts.Attempts,
			CyclesPerS: mg.Run.Throughput.CyclesPerS, LatencyUS: mg.Run.LatencyUS})
	}
}

// liveProgress publishes this generator's totals once a second for the
// merged view, and shows the progress line (inner) if there is one.
type liveProgress struct {
	pub   *Publisher
	inner lab.Progress
}

func (p *liveProgress) Begin(name string, warmup time.Duration) {
	if p.inner != nil {
		p.inner.Begin(name, warmup)
	}
}

func (p *liveProgress) Tick(elapsed time.Duration, iv, total *record.Interval) {
	p.pub.Offer(NewSnapshot(elapsed, total))
	if p.inner != nil {
		p.inner.Tick(elapsed, iv, total)
	}
}

func (p *liveProgress) End(run schema.Run) {
	if p.inner != nil {
		p.inner.End(run)
	}
}
