package compare_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"

	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/gate"
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
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
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
	var seq schema.Run
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
	if cfg.Ceiling {
		// The floor of the one client, its best cell the faster one, and
		// every row's fraction of that floor.
		if len(res.Gaps) != 1 || res.Gaps[0].Client != "rueidis" || res.Gaps[0].Cell != res.Runs[0].Name || res.Gaps[0].Floor <= 0 || res.Gaps[0].CellOfFloor.N != 1 {
			t.Fatalf("gaps %+v: want rueidis's floor with %s as its best cell", res.Gaps, res.Runs[0].Name)
		}
		for _, r := range res.Runs {
			if want := r.Throughput.CyclesPerS / res.Gaps[0].Floor; r.OfFloor == nil || math.Abs(*r.OfFloor-want) > 1e-9 {
				t.Errorf("%s: of_floor %v, want %v", r.Name, r.OfFloor, want)
			}
		}
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

func (c cancelOnTick) Begin(string, time.Duration)                            {}
func (c cancelOnTick) Tick(time.Duration, *record.Interval, *record.Interval) { c.cancel() }
func (c cancelOnTick) End(schema.Run)                                         {}

// TestRunInterrupted: a cancel during the first cell keeps that cell,
// cut short and marked, runs no other, and is not an error.
func TestRunInterrupted(t *testing.T) {
	testenv.Servers(t)
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
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
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
	for _, marker := range []string{compose.EtcdMemberArg, "redis-server"} {
		if left := procs.Children(os.Getpid(), marker); len(left) > 0 {
			t.Errorf("%s still running: %v", marker, left)
		}
	}
}

// TestRunRepeat: two cells in two rounds on one real master (one lab):
// every round of every cell is a run of its own with the full window,
// the second round runs backwards, the ceiling is measured each round,
// the table's row is the median of the JSON's runs, and the summary is a
// gate input whose rounds are the samples.
func TestRunRepeat(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := tiny("sequential", "pipeline")
	cfg.Repeat = 2
	_, err := exec.LookPath("redis-benchmark")
	cfg.Ceiling = err == nil
	cpu := slow.WatchCPU()
	res, err := compare.Run(ctx, cfg, compare.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 4 || len(res.Cells) != 4 || res.Interrupted || len(res.Servers) != 1 {
		t.Fatalf("%d runs, %d cells, %d servers, interrupted %v: want 2 cells × 2 rounds, complete, on one lab", len(res.Runs), len(res.Cells), len(res.Servers), res.Interrupted)
	}
	var ran []string
	for _, c := range res.Cells {
		ran = append(ran, fmt.Sprintf("%s#%d", c.Run.Mux, c.Run.Repeat))
	}
	if got, want := strings.Join(ran, " "), "sequential#1 pipeline#1 pipeline#2 sequential#2"; got != want {
		t.Errorf("ran %s, want %s", got, want)
	}
	if c := res.Ceilings[1]; cfg.Ceiling && (len(c.Rounds) != 2 || c.CyclesPerS != stats.Median(c.Rounds)) {
		t.Errorf("ceiling %+v: want one per round, their median", c)
	}
	sum, err := res.Summary(nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rep.json")
	if err := sum.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	if sum, err = schema.ReadSummary(path); err != nil {
		t.Fatal(err)
	}
	var conf struct{ Repeat int }
	if err := json.Unmarshal(sum.Config, &conf); err != nil || conf.Repeat != 2 {
		t.Errorf("config records repeat %d (%v): want 2", conf.Repeat, err)
	}
	rates := map[string][]float64{}
	var idle []string // rounds without a cycle in their 0.3 s
	for _, r := range sum.Runs {
		if math.Abs(r.DurationS-0.3) > 0.01 || r.Repeat < 1 || r.Repeat > 2 {
			t.Errorf("%s round %d: window %.3f s: want rounds 1–2 of 0.3 s", r.Name, r.Repeat, r.DurationS)
		}
		if r.Counts.Cycles == 0 {
			idle = append(idle, fmt.Sprintf("%s round %d (%+v)", r.Name, r.Repeat, r.Counts))
		}
		rates[r.Name] = append(rates[r.Name], r.Throughput.CyclesPerS)
	}
	var table bytes.Buffer
	if err := render.WriteTable(&table, sum.Runs, render.TableOptions{Ratios: compare.VsSequential(sum.Runs), RatioName: "vs seq", MaxWidth: 200}); err != nil { // names unwrapped
		t.Fatal(err)
	}
	for name, xs := range rates {
		if len(xs) != 2 {
			t.Errorf("%s: %d runs, want one per round", name, len(xs))
		}
		row := ""
		for _, line := range strings.Split(table.String(), "\n") {
			// A row names its run without the leading part every run shares,
			// which the header carries; the first such row, not the errors list's.
			if f := strings.Fields(line); len(f) > 1 && (f[0] == name || strings.HasSuffix(name, "/"+f[0])) && row == "" {
				row = strings.Join(f[1:], " ")
			}
		}
		if want := fmt.Sprintf("%.0f ±", stats.Median(xs)); !strings.HasPrefix(row, want) {
			t.Errorf("%s: table row %q, want the JSON runs' median %q first:\n%s", name, row, want, table.String())
		}
	}
	if !strings.Contains(table.String(), "medians of 2 rounds") {
		t.Errorf("no note on the rounds under the table:\n%s", table.String())
	}
	th, _ := gate.ParseThreshold("violations==0")
	v, err := gate.Check(gate.Input{Current: []gate.Source{{Path: path, Summary: sum}}, Count: 2}, gate.Options{Thresholds: []gate.Threshold{th},
		ThroughputTol: 0.1, LatencyTol: 0.2, LatencyOp: "cycle", Alpha: 0.05})
	if err != nil || v.Failed || len(v.Rows) != 2 || v.Rows[0].Samples[1] != 2 {
		t.Errorf("gate: %v, %+v: want both cells passing on 2 samples each", err, v)
	}
	if len(idle) > 0 {
		// Liveness within 0.3 s: says nothing on a starved machine.
		if share := cpu.Share(); share.Slowdown() >= slow.Starved {
			t.Skipf("inconclusive: no cycle in %v, and %v", idle, share)
		}
		t.Errorf("no cycle in %v", idle)
	}
}

// cancelAtCell cancels the compare when the cell-th cell (from 1) begins.
type cancelAtCell struct {
	cell   int
	begun  *int
	cancel context.CancelFunc
}

func (c cancelAtCell) Begin(string, time.Duration) {
	if *c.begun++; *c.begun == c.cell {
		c.cancel()
	}
}
func (c cancelAtCell) Tick(time.Duration, *record.Interval, *record.Interval) {}
func (c cancelAtCell) End(schema.Run)                                         {}

// TestRunRepeatInterrupted: a cancel in the second round keeps the
// rounds done and the cell cut short, runs nothing after it, and the
// rows are the medians of the complete rounds.
func TestRunRepeatInterrupted(t *testing.T) {
	testenv.Servers(t)
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := tiny("sequential", "pipeline")
	cfg.Repeat = 3
	begun := 0
	res, err := compare.Run(ctx, cfg, compare.Observers{Progress: cancelAtCell{3, &begun, cancel}})
	if err != nil {
		t.Fatalf("an interrupt is not a failure: %v", err)
	}
	if !res.Interrupted || len(res.Runs) != 3 || begun != 3 {
		t.Fatalf("interrupted %v, %d runs, %d begun: want round 1 and the cut-short first cell of round 2", res.Interrupted, len(res.Runs), begun)
	}
	var done schema.Run
	for _, r := range res.Runs {
		switch {
		case r.Repeat == 1 && r.Mux == "pipeline":
			done = r
		case r.Repeat == 2 && !r.Interrupted:
			t.Errorf("round 2's %s not marked interrupted", r.Name)
		}
	}
	rows := stats.MedianRuns(res.Runs)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for _, row := range rows {
		if row.Interrupted || (row.Mux == "pipeline" && row.Throughput.CyclesPerS != done.Throughput.CyclesPerS) {
			t.Errorf("row %s: %v/s, interrupted %v: want the complete round's %v/s", row.Name, row.Throughput.CyclesPerS, row.Interrupted, done.Throughput.CyclesPerS)
		}
	}
}
