package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/generators"
)

// killed is the exit status of a generator killed outright (kill -9).
const killed = -1

// exitBound is how long after its window's end every generator has exited
// when the store or a generator falters (docs/generators.md).
const exitBound = 15 * time.Second

// TestGeneratorsFalter: two generators, the coordination etcd or one
// generator paused past the lease (SIGSTOP, SIGCONT 10 s later), or
// either killed (kill -9), 3 s into a 16 s window (so that the loss is
// noticed inside it). Every generator exits within
// exitBound of the window's end with the status that names the cause,
// and keeps its share on disk, marked with why it was cut short; the
// shares merged by `lockbench merge` add up to what both measured.
func TestGeneratorsFalter(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	pause := func(p pausable) {
		if err := p.Pause(); err != nil {
			t.Error(err)
		}
		time.Sleep(10 * time.Second)
		if err := p.Resume(); err != nil {
			t.Error(err)
		}
	}
	const window = 16 * time.Second
	cases := []struct {
		name  string
		fault func(lab genLab, procs []*generatorProc)
		codes [2]int
		// says: what each generator's share says it was cut short by.
		says [2]string
	}{
		{"coordination paused", func(lab genLab, _ []*generatorProc) { pause(lab.etcd.Members[0]) },
			[2]int{generators.ExitCoordination, generators.ExitCoordination}, [2]string{"stopped answering", "stopped answering"}},
		{"coordination killed", func(lab genLab, _ []*generatorProc) { _ = lab.etcd.Members[0].Kill() },
			[2]int{generators.ExitCoordination, generators.ExitCoordination}, [2]string{"stopped answering", "stopped answering"}},
		{"generator 0 paused", func(_ genLab, procs []*generatorProc) { pause(stopper{procs[0]}) },
			[2]int{generators.ExitLost, generators.ExitLost}, [2]string{"generator 0 was cut off", "generator 0 stopped reporting"}},
		{"generator 1 paused", func(_ genLab, procs []*generatorProc) { pause(stopper{procs[1]}) },
			[2]int{generators.ExitLost, generators.ExitLost}, [2]string{"generator 1 stopped reporting", "generator 1 was cut off"}},
		{"generator 1 killed", func(_ genLab, procs []*generatorProc) { _ = procs[1].cmd.Process.Kill() },
			[2]int{generators.ExitLost, killed}, [2]string{"generator 1 stopped reporting", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lab := startGenLab(t, 1)
			out := t.TempDir()
			// At a fixed rate, not flat out: five cases at once wait on their
			// faults without starving the tests beside them.
			procs := startGenerators(t, lab, 2, out, "--workers", "2", "--rate", "200", "--warmup", "200ms", "--duration", window.String())
			procs[0].waitStderr(t, "generators: 2/2 reporting")
			// The window began before the first merged line.
			end := time.Now().Add(window)
			time.Sleep(3 * time.Second)
			c.fault(lab, procs)
			waitGenerators(t, procs, window+time.Minute)
			var shares []string
			for _, p := range procs {
				if c.codes[p.index] == killed {
					continue // kill -9: nothing of its own to keep
				}
				late := p.ended.Sub(end)
				t.Logf("generator %d: exit %d, %v after the window's end", p.index, p.code, late.Round(time.Millisecond))
				if late > exitBound {
					t.Errorf("generator %d exited %v after its window's end, want within %v", p.index, late.Round(time.Millisecond), exitBound)
				}
				dir := filepath.Join(out, fmt.Sprintf("gen-%d", p.index))
				if p.code != c.codes[p.index] || !strings.Contains(p.stderr.String(), "share is kept in "+dir) {
					t.Errorf("generator %d: exit %d, want %d saying its share is kept in %s:\n%s", p.index, p.code, c.codes[p.index], dir, p.stderr)
				}
				sum, err := schema.ReadSummary(filepath.Join(dir, "summary.json"))
				if err != nil {
					t.Errorf("generator %d kept no share: %v", p.index, err)
					continue
				}
				shares = append(shares, dir)
				run := sum.Runs[0]
				if run.Counts.Cycles == 0 || !run.Interrupted || !strings.Contains(run.CutShort, c.says[p.index]) {
					t.Errorf("generator %d's share: %d cycles, interrupted %v, cut short %q; want its cycles, marked cut short by %q",
						p.index, run.Counts.Cycles, run.Interrupted, run.CutShort, c.says[p.index])
				}
			}
			if c.codes[0] == generators.ExitCoordination && len(shares) == 2 {
				mergedShares(t, shares)
			}
		})
	}
}

// mergedShares: `lockbench merge` of the shares is one run of what they
// measured together: their cycles and workers summed.
func mergedShares(t *testing.T, dirs []string) {
	t.Helper()
	merged := filepath.Join(t.TempDir(), "merged")
	if _, stderr, code := cli(t, 60*time.Second, append(append([]string{"merge", "-q"}, dirs...), "-o", merged)...); code != 0 {
		t.Fatalf("merge of the shares: exit %d: %s", code, stderr)
	}
	m, err := schema.ReadSummary(filepath.Join(merged, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cycles int64
	var workers int
	for _, d := range dirs {
		s, err := schema.ReadSummary(filepath.Join(d, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		cycles += s.Runs[0].Counts.Cycles
		workers += s.Runs[0].Workers
	}
	if r := m.Runs[0]; r.Counts.Cycles != cycles || r.Workers != workers {
		t.Errorf("merged shares: %d cycles of %d workers, the shares hold %d of %d", r.Counts.Cycles, r.Workers, cycles, workers)
	}
}

type pausable interface {
	Pause() error
	Resume() error
}

// stopper pauses a generator's process as SIGSTOP does.
type stopper struct{ p *generatorProc }

func (s stopper) Pause() error  { return s.p.cmd.Process.Signal(syscall.SIGSTOP) }
func (s stopper) Resume() error { return s.p.cmd.Process.Signal(syscall.SIGCONT) }
