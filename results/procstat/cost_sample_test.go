package procstat

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

func TestParseProcStat(t *testing.T) {
	rest := " S 1 2 3 4 5 6 7 8 9 10 %s %s 0 0 20 0 4 0 100"
	for _, tc := range []struct {
		name, comm, utime, stime string
		want                     time.Duration
		bad                      bool
	}{
		{"plain", "(redis-server)", "150", "50", 2 * time.Second, false},
		{"spaces and parens in the name", "(redis (x) *:6379)", "1", "2", 30 * time.Millisecond, false},
		{"not a number", "(r)", "x", "2", 0, true},
		{"truncated", "(r)", "", "", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := "42 " + tc.comm
			if tc.utime != "" {
				line += strings.Replace(strings.Replace(rest, "%s", tc.utime, 1), "%s", tc.stime, 1)
			}
			got, err := parseProcStat(42, []byte(line))
			if (err != nil) != tc.bad {
				t.Fatalf("err %v, bad %v", err, tc.bad)
			}
			if got != tc.want {
				t.Fatalf("%v, want %v", got, tc.want)
			}
		})
	}
}

// TestCostBetween: per-cycle figures are the counters' deltas over the
// cycles, and the server's only when both edges could read it.
func TestCostBetween(t *testing.T) {
	srv := ServerCPU{Source: ServerCPUProc}
	a := CostSample{client: time.Millisecond, syscw: 10, syscr: 20, mallocs: 100, server: time.Second, serverOK: true}
	b := CostSample{client: 3 * time.Millisecond, syscw: 30, syscr: 60, mallocs: 300, server: time.Second + 4*time.Millisecond, serverOK: true}
	c := CostBetween(a, b, 10, srv)
	want := schema.Cost{ClientCPUUSPerCycle: 200, ServerCPUUSPerCycle: 400, ServerCPUSource: ServerCPUProc,
		ClientWritesPerCycle: 2, ClientReadsPerCycle: 4, AllocsPerCycle: 20}
	if *c != want {
		t.Fatalf("%+v, want %+v", *c, want)
	}
	b.serverOK = false
	if c := CostBetween(a, b, 10, srv); c.ServerCPUSource != "" || c.ServerCPUUSPerCycle != 0 {
		t.Fatalf("server unread at the end: %+v", *c)
	}
	if CostBetween(a, b, 0, srv) != nil {
		t.Fatal("a cost without cycles")
	}
}

// TestSampleCostCountsWork: the process's own counters move with work done
// between two samples (CPU spent, a write syscall, allocations).
func TestSampleCostCountsWork(t *testing.T) {
	a := SampleCost(ServerCPU{})
	var sink [][]byte
	for start := time.Now(); time.Since(start) < 20*time.Millisecond; {
		sink = append(sink, make([]byte, 64))
	}
	_ = sink
	f := t.TempDir() + "/w"
	if err := writeFile(f); err != nil {
		t.Fatal(err)
	}
	b := SampleCost(ServerCPU{})
	c := CostBetween(a, b, 1, ServerCPU{})
	if c.ClientCPUUSPerCycle <= 0 || c.ClientWritesPerCycle < 1 || c.AllocsPerCycle < 1 {
		t.Fatalf("counters did not move: %+v", *c)
	}
}

func writeFile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write([]byte("x")); err != nil {
		return err
	}
	return f.Close()
}

// TestCostServerCPUError: a server CPU that cannot be read is absent from
// the cost with the reason, not a silent zero.
func TestCostServerCPUError(t *testing.T) {
	fail := ServerCPU{Source: ServerCPUInfo, Read: func() (time.Duration, error) { return 0, errors.New("NOAUTH Authentication required") }}
	c := CostBetween(SampleCost(fail), SampleCost(fail), 10, fail)
	if c.ServerCPUSource != "" || c.ServerCPUUSPerCycle != 0 || !strings.Contains(c.ServerCPUError, "NOAUTH") {
		t.Fatalf("cost %+v: want no server CPU and the reason", *c)
	}
}
