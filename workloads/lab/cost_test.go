package lab

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"

	"github.com/prometheus/procfs"
)

// TestCostServerCPUAgreesWithProc: a run's cost.server_cpu_us_per_cycle,
// times its cycles, agrees within ±30 % with the masters' CPU read
// independently (prometheus/procfs) around the same run. There is no warmup,
// so the window is the run; the setup and teardown outside it cost the
// masters little next to the load.
func TestCostServerCPUAgreesWithProc(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.Driver.Client, cfg.Driver.Mux = "rueidis", "pipeline"
	cfg.Topology.Redis.Masters = 3
	cfg.Workload.Workers, cfg.Workload.Warmup, cfg.Workload.Duration = 16, 0, 2*time.Second
	l, err := Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	topo := l.Topo
	mastersCPU := func() float64 {
		total := 0.0
		for _, s := range topo.Redis.Servers {
			p, err := procfs.NewProc(s.Pid())
			if err != nil {
				t.Fatal(err)
			}
			st, err := p.Stat()
			if err != nil {
				t.Fatal(err)
			}
			total += st.CPUTime()
		}
		return total
	}
	before := mastersCPU()
	m, err := l.Measure(ctx, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	independent := (mastersCPU() - before) * 1e6 // µs
	c := m.Run.Cost
	if c == nil || c.ServerCPUSource != "proc" {
		t.Fatalf("cost %+v: want server CPU from /proc", c)
	}
	reported := c.ServerCPUUSPerCycle * float64(m.Run.Counts.Cycles)
	if independent <= 0 || math.Abs(reported-independent) > 0.3*independent {
		t.Fatalf("server CPU over the run: cost says %.0f µs (%.1f µs × %d cycles), /proc says %.0f µs",
			reported, c.ServerCPUUSPerCycle, m.Run.Counts.Cycles, independent)
	}
	if c.ClientCPUUSPerCycle <= 0 || c.ClientWritesPerCycle <= 0 || c.ClientReadsPerCycle <= 0 || c.AllocsPerCycle <= 0 {
		t.Fatalf("client counters missing: %+v", *c)
	}
}
