package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/generators"
)

// TestCompareGeneratorsOneAnswer: three generators measure a small compare
// matrix in two rounds together. Generator 0 writes one compare: every
// cell and round merged from the three (counts the sum of each
// generator's own share of that cell and round, its rate the sum of
// theirs within 1 %, each generator's window on the same start), and the
// answers (medians, intervals, ranks) are those of the merged rounds.
func TestCompareGeneratorsOneAnswer(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	lab.command = "compare"
	out := t.TempDir()
	procs := startGenerators(t, lab, 3, out, "-q", "--clients", "goredis", "--muxes", "sequential,fanout",
		"--workloads", "contended", "--keys", "4", "--workers", "2", "--repeat", "2", "--warmup", "300ms", "--duration", "1s")
	waitGenerators(t, procs, 3*time.Minute)
	for _, p := range procs {
		if p.code != exit.OK {
			t.Fatalf("generator %d: exit %d:\n%s", p.index, p.code, p.stderr)
		}
	}
	sum, err := schema.ReadSummary(filepath.Join(out, "gen-0", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 4 {
		t.Fatalf("merged compare has %d runs, want 2 cells × 2 rounds", len(sum.Runs))
	}
	shares := map[string]schema.Run{} // generator/run/round → its own run
	for i := 1; i < 3; i++ {
		s, err := schema.ReadSummary(filepath.Join(out, "gen-"+strconv.Itoa(i), "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range s.Runs {
			shares[strconv.Itoa(i)+"/"+record.LogName(r)] = r
		}
	}
	for _, r := range sum.Runs {
		rep := reportOf(t, r)
		if len(rep.Each) != 3 || len(rep.Missing) != 0 || r.MergedFrom != 3 {
			t.Fatalf("%s round %d: %d generators merged (from %d), missing %v; want 3", r.Name, r.Repeat, len(rep.Each), r.MergedFrom, rep.Missing)
		}
		var cycles int64
		var rate float64
		for _, e := range rep.Each {
			cycles += e.Cycles
			rate += e.CyclesPerS
			if e.Generator == 0 {
				continue
			}
			own, ok := shares[strconv.Itoa(e.Generator)+"/"+record.LogName(r)]
			if !ok || own.Counts.Cycles != e.Cycles {
				t.Errorf("%s round %d: generator %d wrote %d cycles (found %v), reported %d", r.Name, r.Repeat, e.Generator, own.Counts.Cycles, ok, e.Cycles)
			}
		}
		t.Logf("%s round %d: merged %.0f cycles/s, the generators' %.0f; windows %.0f µs apart (bound %.0f µs)",
			r.Name, r.Repeat, r.Throughput.CyclesPerS, rate, rep.WindowSkewUS, rep.WindowSkewBoundUS)
		if r.Counts.Cycles != cycles {
			t.Errorf("%s round %d: merged %d cycles, the generators' add up to %d", r.Name, r.Repeat, r.Counts.Cycles, cycles)
		}
		if cycles == 0 {
			// Nothing to compare rates of: a failure on an idle machine; on
			// one other work oversubscribes, a 1 s round can go by unserved.
			if slow.Factor() > 1 {
				t.Logf("%s round %d: no cycle at load factor %.1f: its rate not judged", r.Name, r.Repeat, slow.Factor())
				continue
			}
			t.Errorf("%s round %d: no cycle in any generator", r.Name, r.Repeat)
		}
		if d := r.Throughput.CyclesPerS/rate - 1; math.Abs(d) > 0.01 {
			t.Errorf("%s round %d: merged %.0f cycles/s, the generators' add up to %.0f (%+.2f %%), want within 1 %%", r.Name, r.Repeat, r.Throughput.CyclesPerS, rate, 100*d)
		}
		if rep.WindowSkewUS+rep.WindowSkewBoundUS > 10_000 {
			t.Errorf("%s round %d: windows %.0f µs apart (bound %.0f µs), want within 10 ms", r.Name, r.Repeat, rep.WindowSkewUS, rep.WindowSkewBoundUS)
		}
	}
	raw, err := os.ReadFile(filepath.Join(out, "gen-0", "answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []compare.Answer
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := compare.Answers(sum.Runs)
	wb, _ := json.Marshal(want)
	var wantBack []compare.Answer
	_ = json.Unmarshal(wb, &wantBack)
	if len(got) == 0 || !reflect.DeepEqual(got, wantBack) {
		t.Errorf("answers.json %s, want the answers of the merged rounds %s", raw, wb)
	}
}

// reportOf is a merged run's generators report.
func reportOf(t *testing.T, r schema.Run) generators.Report {
	t.Helper()
	raw, err := json.Marshal(r.Extra["generators"])
	if err != nil {
		t.Fatal(err)
	}
	var rep generators.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCompareGeneratorsBadInput: what several generators cannot measure
// together is refused before anything starts: one line naming the flag,
// exit 2.
func TestCompareGeneratorsBadInput(t *testing.T) {
	gen := []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a ceiling per generator", []string{"--ceiling"}, "--ceiling"},
		{"a delay line per generator", []string{"--rtt", "0,1ms"}, "--rtt"},
		{"a baseline on servers of its own", []string{"--baselines", "etcd"}, "--baselines"},
		{"a bad threshold", []string{"--threshold", "cycle.p99<<2"}, "--threshold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, stderr, code := cli(t, 30*time.Second, append(append([]string{"compare", "-q", "--out", out}, gen...), c.args...)...)
			if code != exit.Usage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming %s", code, stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}

// TestCompareGeneratorKilled: a generator killed outright during a
// compare's second cell stops the others (exit 6, naming it), and
// generator 0's compare holds merged cells only: the first, whole, and the
// second merged from the survivors or left out, never one generator's
// share passed off as the cell.
func TestCompareGeneratorKilled(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	lab.command = "compare"
	out := t.TempDir()
	procs := startGenerators(t, lab, 3, out, "--clients", "goredis", "--muxes", "sequential,fanout",
		"--workloads", "contended", "--keys", "4", "--workers", "2", "--warmup", "300ms", "--duration", "8s")
	procs[0].waitStderr(t, "1 of 2 cells") // the first cell is done: the second begins
	// Into the second cell's window: a merged line after it began.
	before := strings.Count(procs[0].stderr.String(), "3/3 reporting")
	deadline := time.Now().Add(slow.D(time.Minute))
	for strings.Count(procs[0].stderr.String(), "3/3 reporting") == before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := procs[2].cmd.Process.Kill(); err != nil {
		t.Fatalf("killing generator 2: %v:\n%s", err, procs[2].stderr)
	}
	waitGenerators(t, procs, time.Minute)
	for _, p := range procs[:2] {
		if p.code != generators.ExitLost || !strings.Contains(p.stderr.String(), "generator 2 stopped reporting") {
			t.Errorf("generator %d: exit %d, want %d naming generator 2:\n%s", p.index, p.code, generators.ExitLost, p.stderr)
		}
	}
	sum, err := schema.ReadSummary(filepath.Join(out, "gen-0", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) == 0 {
		t.Fatal("generator 0 wrote no cell: the first was measured whole")
	}
	for i, r := range sum.Runs {
		if _, ok := r.Extra["generators"]; !ok {
			t.Fatalf("run %d (%s) is not merged: one generator's share written as the cell", i, r.Name)
		}
		rep := reportOf(t, r)
		switch {
		case len(rep.Each) == 3 && len(rep.Missing) == 0:
		case len(rep.Each) == 2 && len(rep.Missing) == 1 && rep.Missing[0] == 2:
		default:
			t.Errorf("%s: merged %d generators, missing %v; want all 3, or the 2 that lived with generator 2 named", r.Name, len(rep.Each), rep.Missing)
		}
	}
}
