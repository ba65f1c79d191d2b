package workloads_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/workloads"
)

// windowRun is one run's measurement: the row, the loop's result and the
// intervals handed to OnInterval.
type windowRun struct {
	run       schema.Run
	res       workloads.Result
	intervals []record.Interval // Start, End and counts of each (histograms not kept)
	acquired  []int64           // per interval
	cpu       slow.CPUShare     // this process's CPU share during the run
}

func runWindow(t *testing.T, ctx context.Context, l drivers.Locker, cfg workloads.Config) windowRun {
	t.Helper()
	clock := record.NewClock()
	reg := record.NewRegistry(cfg.Rate > 0)
	ref := referee.New(cfg.Workers, clock, 0)
	var out windowRun
	env := workloads.Env{Locker: l, Registry: reg, Clock: clock, Referee: ref,
		OnInterval: func(iv *record.Interval) {
			out.intervals = append(out.intervals, record.Interval{Start: iv.Start, End: iv.End})
			out.acquired = append(out.acquired, iv.Count(schema.OpAcquire, schema.OK))
		}}
	cpu := slow.WatchCPU()
	res, err := workloads.Run(ctx, cfg, env)
	if err != nil {
		t.Fatal(err)
	}
	out.res, out.cpu = res, cpu.Share()
	record.Fill(&out.run, reg.Total())
	out.run.FillReferee(ref.Report())
	return out
}

// checkWindow asserts the window invariants: the measured time is the
// asked duration (1 % + 10 ms), the referee judged exactly the grants that
// were counted, and the interval log covers the window without gaps, its
// counts adding up to the total.
func checkWindow(t *testing.T, w windowRun, want time.Duration) {
	t.Helper()
	c := w.run.Counts
	t.Logf("duration_s %.4f, %d acquired, referee margins %d, %d intervals", w.run.DurationS, c.Acquired, w.run.ValidityMarginUS.Count, len(w.intervals))
	if c.Acquired == 0 {
		// Nothing to check the window against; liveness within a second
		// says nothing on a machine too busy to run the workers.
		if w.cpu.Slowdown() >= slow.Starved {
			t.Skipf("inconclusive: nothing acquired (%+v) and %v", c, w.cpu)
		}
		t.Fatalf("nothing acquired: %+v (%v)", c, w.cpu)
	}
	if slack := 0.01*want.Seconds() + 0.010; math.Abs(w.run.DurationS-want.Seconds()) > slack {
		t.Errorf("duration_s %.4f, want %.3f ± %.3f", w.run.DurationS, want.Seconds(), slack)
	}
	if got := w.run.ValidityMarginUS.Count; got != c.Acquired {
		t.Errorf("referee judged %d grants, counts.acquired %d", got, c.Acquired)
	}
	var perWorker int64
	for _, n := range w.run.Referee.Acquisitions {
		perWorker += n
	}
	if perWorker != c.Acquired {
		t.Errorf("referee's per-worker acquisitions (fairness) sum to %d, counts.acquired %d", perWorker, c.Acquired)
	}
	var sum int64
	for i, iv := range w.intervals {
		sum += w.acquired[i]
		if i > 0 && !iv.Start.Equal(w.intervals[i-1].End) {
			t.Errorf("interval %d starts at %v, the previous ended at %v", i, iv.Start, w.intervals[i-1].End)
		}
	}
	if sum != c.Acquired {
		t.Errorf("intervals hold %d acquisitions, the total %d", sum, c.Acquired)
	}
	if n := len(w.intervals); n > 0 {
		span := w.intervals[n-1].End.Sub(w.intervals[0].Start).Seconds()
		if math.Abs(span-w.run.DurationS) > 1e-6 {
			t.Errorf("intervals span %.4f s, the window %.4f s", span, w.run.DurationS)
		}
	}
}

// TestWindowEveryWorkload: for every workload (closed loop, open loop, ramp)
// with a warmup that is not a whole second, the measured window is exactly
// --duration and the referee saw every grant counted in it.
func TestWindowEveryWorkload(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	r := startMasters(t, 5)
	l := openLocker(t, r, 8, 0, 0)
	const ms = time.Millisecond
	cases := []struct {
		name             string
		workload         string
		keys             int
		rate             float64
		ramp             time.Duration
		duration, warmup time.Duration
	}{
		{"uncontended", "uncontended", 1, 0, 0, 1000 * ms, 300 * ms},
		{"contended", "contended", 2, 0, 0, 1000 * ms, 300 * ms},
		{"zipf", "zipf", 50, 0, 0, 1500 * ms, 250 * ms},
		{"open loop", "uncontended", 1, 400, 0, 1000 * ms, 300 * ms},
		{"ramp", "contended", 4, 0, 700 * ms, 1000 * ms, 200 * ms},
		{"warmup longer than the duration", "uncontended", 1, 0, 0, 400 * ms, 900 * ms},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := workloads.DefaultConfig()
			cfg.Workload, cfg.Keys, cfg.Workers, cfg.Rate, cfg.Ramp = c.workload, c.keys, 8, c.rate, c.ramp
			cfg.Duration, cfg.Warmup, cfg.Prefix, cfg.RetryDelay = c.duration, c.warmup, "window-"+c.name, ms
			w := runWindow(t, context.Background(), l, cfg)
			if w.res.NothingMeasured || w.res.Interrupted {
				t.Errorf("result %+v: a complete run", w.res)
			}
			checkWindow(t, w, c.duration)
		})
	}
}

// cancelAfter cancels once n locks were granted: an interruption at a
// known point of the run, without a timer.
type cancelAfter struct {
	drivers.Locker
	n      atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	l, a, err := c.Locker.Lock(ctx, key)
	if err == nil && c.n.Add(-1) == 0 {
		c.cancel()
	}
	return l, a, err
}

// TestWindowInterrupted: a run canceled during the warmup measured nothing
// and says so (no warmup data as results); one canceled inside the window
// states the window it measured, and the referee saw every grant of it.
func TestWindowInterrupted(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 5)
	l := openLocker(t, r, 4, 0, 0)
	cases := []struct {
		name   string
		warmup time.Duration
	}{
		{"during the warmup", time.Hour},
		{"inside the window", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := workloads.DefaultConfig()
			cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Prefix = 4, time.Hour, c.warmup, "interrupted"
			stop := &cancelAfter{Locker: l, cancel: cancel}
			stop.n.Store(200)
			w := runWindow(t, ctx, stop, cfg)
			if !w.res.Interrupted {
				t.Fatalf("result %+v: not interrupted", w.res)
			}
			cn := w.run.Counts
			if c.warmup > 0 {
				if !w.res.NothingMeasured {
					t.Errorf("result %+v: interrupted in the warmup, yet measured", w.res)
				}
				if cn != (schema.Counts{}) || w.run.DurationS != 0 || w.run.ValidityMarginUS.Count != 0 || len(w.intervals) != 0 {
					t.Errorf("warmup data presented as results: %+v, duration_s %v, margins %d, %d intervals",
						cn, w.run.DurationS, w.run.ValidityMarginUS.Count, len(w.intervals))
				}
				return
			}
			if w.res.NothingMeasured {
				t.Fatalf("result %+v: measured nothing", w.res)
			}
			if w.run.DurationS <= 0 || w.run.DurationS > time.Hour.Seconds() {
				t.Errorf("duration_s %v", w.run.DurationS)
			}
			if got := w.run.ValidityMarginUS.Count; got != cn.Acquired || cn.Acquired < 200 {
				t.Errorf("referee judged %d grants, counts.acquired %d (≥ 200 granted)", got, cn.Acquired)
			}
		})
	}
}
