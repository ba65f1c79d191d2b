package workloads_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/workloads"
)

// startMasters starts n local masters (no persistence) for one test.
func startMasters(t *testing.T, n int) *compose.Redis {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// openLocker opens a Redlock client (go-redis, fan-out) on r's masters;
// zero ttl or nodeTimeout keep the defaults.
func openLocker(t *testing.T, r *compose.Redis, workers int, ttl, nodeTimeout time.Duration) drivers.Locker {
	t.Helper()
	rc := redlock.DefaultConfig()
	if ttl > 0 {
		rc.TTL = ttl
	}
	if nodeTimeout > 0 {
		rc.NodeTimeout = nodeTimeout
	}
	l, err := backends.Open(context.Background(), backends.Spec{Backend: "redlock", Client: "goredis", Mux: "fanout",
		Workers: workers, Redlock: rc}, backends.Endpoints{Masters: r.Endpoints()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// measure runs cfg on l with a referee; it returns the run row and pacing.
func measure(t *testing.T, l drivers.Locker, cfg workloads.Config, during func()) (schema.Run, *workloads.Pacing) {
	t.Helper()
	clock := record.NewClock()
	reg := record.NewRegistry(cfg.Rate > 0)
	ref := referee.New(cfg.Workers, clock, 0)
	type out struct {
		res workloads.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := workloads.Run(context.Background(), cfg, workloads.Env{Locker: l, Registry: reg, Clock: clock, Referee: ref})
		done <- out{res, err}
	}()
	if during != nil {
		during()
	}
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	var run schema.Run
	record.Fill(&run, reg.Total())
	run.FillReferee(ref.Report())
	return run, o.res.Pacing
}

// TestOpenLoopShowsStall: every master is frozen (SIGSTOP) for 1 s. An open
// loop at a fixed rate keeps its schedule, so the cycles due during the stall
// start late and their acquire_total, measured from the intended start, has
// a p99 in the hundreds of ms, while their service time does not; a closed
// loop simply stops sending and hides the stall.
//
// The comparisons are at p90: the stall delays a third of the open loop's
// cycles (every slot due in that second) but only the 4 cycles in flight,
// in either loop's service time. On a loaded machine a run completes only
// ~300 cycles, and those 4 are then above the 99th percentile too.
func TestOpenLoopShowsStall(t *testing.T) {
	if testing.Short() {
		t.Skip("freezes masters for 1 s per run")
	}
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	r := startMasters(t, 5)
	// SETs of attempts that timed out during the stall land when the masters
	// thaw and, their rollback lost, hold the key until the TTL: keep it
	// short so the stuck cycles free themselves soon after.
	l := openLocker(t, r, 4, 300*time.Millisecond, 0)
	stall := func() {
		time.Sleep(500 * time.Millisecond)
		for _, s := range r.Servers {
			if err := s.Pause(); err != nil {
				t.Error(err)
			}
		}
		time.Sleep(time.Second)
		for _, s := range r.Servers {
			if err := s.Resume(); err != nil {
				t.Error(err)
			}
		}
	}
	cfg := workloads.DefaultConfig()
	cfg.Workload, cfg.Workers, cfg.Warmup, cfg.Duration = "uncontended", 4, 0, 2500*time.Millisecond
	cfg.Prefix, cfg.Tries, cfg.RetryDelay = "stall", 1000, time.Millisecond

	cfg.Rate = 300
	open, pacing := measure(t, l, cfg, stall)
	cfg.Rate = 0
	closed, _ := measure(t, l, cfg, stall)

	ms := func(us float64) float64 { return us / 1e3 }
	openLat, openP90 := ms(open.LatencyUS["acquire_total"].P99), ms(open.LatencyUS["acquire_total"].P90)
	openSvc, closedLat := ms(open.ServiceUS["acquire_total"].P90), ms(closed.LatencyUS["acquire_total"].P90)
	t.Logf("open loop: acquire_total p99 %.1f ms, p90 %.1f ms from intended start, service p90 %.1f ms, %d cycles, pacing %+v",
		openLat, openP90, openSvc, open.Counts.Cycles, *pacing)
	t.Logf("closed loop: acquire_total p90 %.1f ms, %d cycles", closedLat, closed.Counts.Cycles)
	t.Logf("open counts %+v; closed counts %+v", open.Counts, closed.Counts)
	if openLat < 300 {
		t.Errorf("open loop acquire_total p99 %.1f ms: the 1 s stall should show (≥ 300 ms)", openLat)
	}
	if openSvc > openP90/2 {
		t.Errorf("open loop service p90 %.1f ms: should stay well under the corrected p90 %.1f ms", openSvc, openP90)
	}
	if closedLat > openP90/2 {
		t.Errorf("closed loop acquire_total p90 %.1f ms: coordinated omission should hide the stall (open p90: %.1f ms)", closedLat, openP90)
	}
	if pacing == nil || pacing.Missed == 0 {
		t.Errorf("pacing %+v: the stall should count missed starts", pacing)
	} else if pacing.Started+pacing.Unstarted != pacing.Scheduled {
		t.Errorf("pacing %+v: started + unstarted should be the slots scheduled in the window", *pacing)
	}
	if closed.ServiceUS != nil {
		t.Errorf("closed loop has a service-time histogram")
	}
}
