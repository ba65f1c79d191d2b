package compare_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/etcdmember"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
}

// tiny is a matrix of short cells on one local master.
func tiny(muxes ...string) compare.Config {
	base := lab.DefaultConfig()
	base.Workload.Workers, base.Workload.Duration, base.Workload.Warmup = 4, 300*time.Millisecond, 100*time.Millisecond
	return compare.Config{Base: base, Clients: []string{"rueidis"}, Muxes: muxes, Workloads: []string{"uncontended"}, Masters: []int{1}}
}

// TestRunTinyMatrix: two cells (and the ceiling) on one real master: every
// cell's window is the duration, the ratios are the cells' own
// throughputs divided, and the summary holds the config's keys.
func TestRunTinyMatrix(t *testing.T) {
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := tiny("sequential", "pipeline")
	_, err := exec.LookPath("redis-benchmark")
	cfg.Ceiling = err == nil
	res, err := compare.Run(ctx, cfg, compare.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || len(res.Cells) != 2 || res.Interrupted {
		t.Fatalf("%d runs, %d cells, interrupted %v: want 2 complete", len(res.Runs), len(res.Cells), res.Interrupted)
	}
	if res.Cells[0].Run.Mux != "sequential" || res.Cells[1].Run.Mux != "pipeline" {
		t.Errorf("cells ran as %s, %s: want the matrix order", res.Cells[0].Run.Mux, res.Cells[1].Run.Mux)
	}
	var seq results.Run
	for _, r := range res.Runs {
		if r.Mux == "sequential" {
			seq = r
		}
	}
	for i, r := range res.Runs {
		if math.Abs(r.DurationS-0.3) > 0.01 || r.Counts.Cycles == 0 || r.Masters != 1 {
			t.Errorf("%s: window %.3f s, %d cycles, %d masters: want 0.3 s of cycles on 1", r.Name, r.DurationS, r.Counts.Cycles, r.Masters)
		}
		if i > 0 && r.Throughput.CyclesPerS > res.Runs[i-1].Throughput.CyclesPerS {
			t.Errorf("not sorted by throughput at %s", r.Name)
		}
		if want := r.Throughput.CyclesPerS / seq.Throughput.CyclesPerS; r.VsSequential == nil || math.Abs(*r.VsSequential-want) > 1e-9 {
			t.Errorf("%s: vs_sequential %v, want %v", r.Name, r.VsSequential, want)
		}
		if !cfg.Ceiling {
			continue
		}
		c := res.Ceilings[1]
		if want := r.Throughput.CyclesPerS / c.CyclesPerS; r.OfCeiling == nil || math.Abs(*r.OfCeiling-want) > 1e-9 || r.CeilingCost == nil {
			t.Errorf("%s: of_ceiling %v (cost %v), want %v of %v", r.Name, r.OfCeiling, r.CeilingCost, want, c.CyclesPerS)
		}
	}
	if cfg.Ceiling && res.Ceilings[1].SetPerS <= 0 {
		t.Errorf("ceiling %+v", res.Ceilings[1])
	}
	sum, err := res.Summary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var conf map[string]json.RawMessage
	if err := json.Unmarshal(sum.Config, &conf); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"base", "clients", "muxes", "workloads", "masters", "ceiling"} {
		if _, ok := conf[k]; !ok {
			t.Errorf("summary config lacks %q: %s", k, sum.Config)
		}
	}
	if sum.Versions["redis-server"] == "" || len(sum.Servers) != 1 || len(sum.Runs) != 2 {
		t.Errorf("summary: versions %v, %d servers, %d runs", sum.Versions, len(sum.Servers), len(sum.Runs))
	}
}

// cancelOnTick cancels the compare at the first per-second tick of a cell.
type cancelOnTick struct{ cancel context.CancelFunc }

func (c cancelOnTick) Begin(string, time.Duration)                              {}
func (c cancelOnTick) Tick(time.Duration, *results.Interval, *results.Interval) { c.cancel() }
func (c cancelOnTick) End(results.Run)                                          {}

// TestRunInterrupted: a cancel during the first cell keeps that cell,
// cut short and marked, runs no other, and is not an error.
func TestRunInterrupted(t *testing.T) {
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := tiny("sequential", "fanout")
	cfg.Base.Workload.Duration, cfg.Base.Workload.Warmup = time.Minute, 0
	res, err := compare.Run(ctx, cfg, compare.Observers{Progress: cancelOnTick{cancel}})
	if err != nil {
		t.Fatalf("an interrupt is not a failure: %v", err)
	}
	if !res.Interrupted || len(res.Runs) != 1 || !res.Runs[0].Interrupted || res.Runs[0].Counts.Cycles == 0 {
		t.Fatalf("interrupted %v, %d runs (%+v): want the one cut-short cell with its cycles", res.Interrupted, len(res.Runs), res.Runs)
	}
	if res.Runs[0].DurationS > 30 {
		t.Errorf("window %.1f s: the cell did not stop at the cancel", res.Runs[0].DurationS)
	}
}

// TestRunBaselines: baseline rows run beside the matrix on the group's
// servers (etcd members started for them), each on the servers its lock
// lives on, and every server started is stopped at the end.
func TestRunBaselines(t *testing.T) {
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := tiny("fanout")
	cfg.Masters = []int{3}
	cfg.Workloads = []string{"contended"}
	cfg.Base.Workload.Keys = 2
	cfg.Base.Topology.Etcd.Members = 1
	// redsync fail-fast under contention can leave keys on a minority of
	// masters until they expire (see README, redsync): with the default
	// 10 s TTL a short cell may then see nothing but split brains. A
	// 250 ms TTL over a 1 s cell lets such keys expire within the cell.
	cfg.Base.Driver.Redlock.TTL, cfg.Base.Workload.Duration = 250*time.Millisecond, time.Second
	cfg.Baselines = []string{"etcd-rpc", "redsync", "rueidislock"}
	res, err := compare.Run(ctx, cfg, compare.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ // row → servers its lock lives on
		"redlock/rueidis/fanout/contended": 3,
		"etcd/rpc/contended":               1,
		"redsync/fail-fast/contended":      3,
		"rueidislock/contended":            1,
	}
	for _, r := range res.Runs {
		m, ok := want[r.Name]
		if !ok {
			t.Errorf("unexpected row %q", r.Name)
			continue
		}
		delete(want, r.Name)
		if r.Masters != m {
			t.Errorf("%s: masters %d, want %d", r.Name, r.Masters, m)
		}
		if r.Counts.Acquired == 0 || r.Counts.Violations != 0 {
			t.Errorf("%s: counts %+v, want grants and no violations", r.Name, r.Counts)
		}
	}
	for name := range want {
		t.Errorf("row %q missing", name)
	}
	for _, marker := range []string{etcdmember.Arg, "redis-server"} {
		if left := compose.Children(os.Getpid(), marker); len(left) > 0 {
			t.Errorf("%s still running: %v", marker, left)
		}
	}
}
