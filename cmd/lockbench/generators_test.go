package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/generators/crossref"
)

// genLab is what the generator tests run against, started by the test as
// an orchestrator would: Redis masters and a one-member coordination etcd.
type genLab struct {
	redis     string // --redis
	coord     string // --coord
	coordUser string // --coord-user, its password in coordPass
	coordPass string
	command   string        // the subcommand the generators run ("": run)
	coordTLS  []string      // --coord-cacert, --coord-cert, --coord-key
	etcd      *compose.Etcd // the coordination store, to pause or kill
}

func startGenLab(t *testing.T, masters int) genLab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: masters, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return genLab{redis: strings.Join(secretURLs(r), ","), coord: strings.Join(e.Addrs(), ","),
		coordUser: e.Access.Username, coordPass: e.Access.Password,
		coordTLS: []string{"--coord-cacert", e.Access.CACert, "--coord-cert", e.Access.Cert, "--coord-key", e.Access.Key},
		etcd:     e}
}

// generatorProc is one generator: lockbench started as an Indexed Job
// starts it, the same arguments for all and its index in
// $JOB_COMPLETION_INDEX.
type generatorProc struct {
	index  int
	cmd    *exec.Cmd
	stderr *testenv.Buffer
	done   chan struct{}
	code   int
	ended  time.Time
}

// startGenerators starts n generators with args (plus --generators and the
// lab's servers) under a fresh coordination prefix; generator i writes
// into out/gen-i.
func startGenerators(t *testing.T, lab genLab, n int, out string, args ...string) []*generatorProc {
	t.Helper()
	prefix := fmt.Sprintf("t%d", time.Now().UnixNano())
	var procs []*generatorProc
	for i := range n {
		procs = append(procs, startGenerator(t, lab, prefix, n, i, out, args...))
	}
	return procs
}

// generatorArgs is the command every generator runs, as the Indexed Job
// and compose files run it: the index is not on it (JOB_COMPLETION_INDEX).
func generatorArgs(n int, coord, prefix, redis, out string) []string {
	return []string{"run", "--generators", strconv.Itoa(n), "--coord", coord, "--coord-prefix", prefix, "--redis", redis, "--out", out}
}

// startGenerator starts generator i of n under prefix.
func startGenerator(t *testing.T, lab genLab, prefix string, n, i int, out string, args ...string) *generatorProc {
	t.Helper()
	a := append(generatorArgs(n, lab.coord, prefix, lab.redis, filepath.Join(out, "gen-"+strconv.Itoa(i))), args...)
	if lab.command != "" {
		a[0] = lab.command
	}
	if lab.coordUser != "" {
		a = append(a, "--coord-user", lab.coordUser)
	}
	a = append(a, lab.coordTLS...)
	cmd := lockbenchCmd(context.Background(), a...)
	cmd.Env = append(cmd.Env, generators.IndexEnv+"="+strconv.Itoa(i), generators.CoordPasswordEnv+"="+lab.coordPass)
	p := &generatorProc{index: i, cmd: cmd, stderr: &testenv.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		p.code, p.ended = cmd.ProcessState.ExitCode(), time.Now()
		close(p.done)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.done })
	return p
}

// wait waits for every generator to end (at most d) and reports which
// did not.
func waitGenerators(t *testing.T, procs []*generatorProc, d time.Duration) {
	t.Helper()
	deadline := time.After(slow.D(d))
	for _, p := range procs {
		select {
		case <-p.done:
		case <-deadline:
			t.Fatalf("generator %d still running after %v:\n%s", p.index, d, p.stderr)
		}
	}
}

// mergedReport reads generator 0's merged summary and its generators report.
func mergedReport(t *testing.T, out string) (*schema.Summary, generators.Report) {
	t.Helper()
	s, err := schema.ReadSummary(filepath.Join(out, "gen-0", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s, reportOf(t, s.Runs[0])
}

// TestGeneratorsOneRun: four generators started as an Indexed Job starts
// them make one run: every one exits 0, generator 0's summary merges all
// four (counts are the sum of each generator's own), every generator
// measured an offset with an error bound, and the windows started close
// together on the masters' clock.
func TestGeneratorsOneRun(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	// --allow-failures: four uncoordinated generators on four Redlock keys
	// can split their votes for a second (a stall, exit 4 otherwise); what
	// is tested is the merge, not their liveness.
	procs := startGenerators(t, lab, 4, out, "-q", "--workload", "contended", "--keys", "4", "--workers", "4",
		"--warmup", "500ms", "--duration", "2s", "--allow-failures")
	waitGenerators(t, procs, 2*time.Minute)
	for _, p := range procs {
		if p.code != exit.OK {
			t.Fatalf("generator %d: exit %d:\n%s", p.index, p.code, p.stderr)
		}
	}
	sum, rep := mergedReport(t, out)
	if rep.Generators != 4 || len(rep.Each) != 4 || len(rep.Missing) != 0 {
		t.Fatalf("report: %d generators, %d merged, missing %v; want 4, 4, none", rep.Generators, len(rep.Each), rep.Missing)
	}
	var cycles int64
	var rate float64
	for i := range 4 {
		s, err := schema.ReadSummary(filepath.Join(out, "gen-"+strconv.Itoa(i), "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			cycles += s.Runs[0].Counts.Cycles
			rate += s.Runs[0].Throughput.CyclesPerS
		}
	}
	for _, e := range rep.Each {
		if e.Generator == 0 {
			cycles += e.Cycles
			rate += e.CyclesPerS
		}
		if e.OffsetErrorUS <= 0 || e.EndErrorUS <= 0 {
			t.Errorf("generator %d: offset error bounds %v, %v µs: want positive (half a round trip)", e.Generator, e.OffsetErrorUS, e.EndErrorUS)
		}
	}
	run := sum.Runs[0]
	if run.Counts.Cycles != cycles || cycles == 0 {
		t.Errorf("merged cycles %d, the generators' own add up to %d", run.Counts.Cycles, cycles)
	}
	if run.Workers != 16 {
		t.Errorf("merged workers %d, want 16", run.Workers)
	}
	t.Logf("window skew %.0f µs (bound %.0f µs), wake-ups %.0f µs apart; merged %.0f cycles/s, sum of the generators' %.0f (%+.2f %%)",
		rep.WindowSkewUS, rep.WindowSkewBoundUS, rep.StartSpreadUS, run.Throughput.CyclesPerS, rate, 100*(run.Throughput.CyclesPerS/rate-1))
	if d := run.Throughput.CyclesPerS/rate - 1; d < -0.01 || d > 0.01 {
		t.Errorf("merged %.0f cycles/s, the generators' add up to %.0f: %+.2f %%, want within 1 %%", run.Throughput.CyclesPerS, rate, 100*d)
	}
	if rep.WindowSkewUS < 0 || rep.WindowSkewUS+rep.WindowSkewBoundUS > 10_000 || rep.WindowSkewBoundUS <= 0 {
		t.Errorf("windows started %.0f µs apart (bound %.0f µs) on the masters' clock, want within 10 ms and a positive bound", rep.WindowSkewUS, rep.WindowSkewBoundUS)
	}
	if rep.CrossReferee.Violations != 0 || rep.CrossReferee.Grants != run.Counts.Acquired {
		t.Errorf("cross referee: %d violations over %d grants (acquired %d): want 0 over every grant", rep.CrossReferee.Violations, rep.CrossReferee.Grants, run.Counts.Acquired)
	}
}

// waitStderr waits until p wrote s on stderr.
func (p *generatorProc) waitStderr(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(slow.D(time.Minute))
	for !strings.Contains(p.stderr.String(), s) {
		select {
		case <-p.done:
			t.Fatalf("generator %d ended (exit %d) before writing %q:\n%s", p.index, p.code, s, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("generator %d never wrote %q:\n%s", p.index, s, p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lostWithin is how soon after a generator is killed the others stop
// measuring: its lease lapses at most 5 s after its last keepalive (before
// the kill), the store notices on its next expiry check (every 0.5 s) and
// the workers stop; the rest is room for a busy machine. A run that did
// not notice would measure on to the end of its 60 s window.
const lostWithin = 7 * time.Second

// TestGeneratorKilledFailsTheRun: a generator killed outright mid-run
// (kill -9: no goodbye) stops the others measuring within lostWithin, each
// exiting with the lost-generator status, and generator 0's summary names
// it.
func TestGeneratorKilledFailsTheRun(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	procs := startGenerators(t, lab, 4, out, "--workload", "contended", "--keys", "4", "--workers", "2",
		"--warmup", "200ms", "--duration", "60s")
	procs[0].waitStderr(t, "generators: 4/4 reporting")
	victim := procs[2]
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	waitGenerators(t, procs, time.Minute)
	_, rep := mergedReport(t, out)
	for _, p := range procs {
		if p == victim {
			continue
		}
		t.Logf("generator %d exited %v after the kill", p.index, p.ended.Sub(killed).Round(time.Millisecond))
		if p.code != generators.ExitLost {
			t.Errorf("generator %d: exit %d, want %d (a generator lost):\n%s", p.index, p.code, generators.ExitLost, p.stderr)
		}
		if !strings.Contains(p.stderr.String(), "generator 2 stopped reporting") {
			t.Errorf("generator %d does not name generator 2 on stderr:\n%s", p.index, p.stderr)
		}
	}
	// Stopped: each survivor's measured window ended (its workers all
	// stopped) within lostWithin of the kill, on the masters' clock, which
	// on one machine is the test's.
	for _, e := range rep.Each {
		took := e.WindowEnd.Sub(killed)
		t.Logf("generator %d stopped measuring %v after the kill", e.Generator, took.Round(time.Millisecond))
		if took > lostWithin {
			t.Errorf("generator %d stopped measuring %v after generator 2 was killed, want within %v", e.Generator, took.Round(time.Millisecond), lostWithin)
		}
	}
	if len(rep.Missing) != 1 || rep.Missing[0] != 2 || rep.Aborted == nil || rep.Aborted.Generator != 2 {
		t.Errorf("summary: missing %v, aborted %+v; want generator 2 missing and named", rep.Missing, rep.Aborted)
	}
	if len(rep.Each) != 3 {
		t.Errorf("summary merges %d generators, want the 3 that lived", len(rep.Each))
	}
}

// TestCrossRefereeFindsOverlaps: four generators share the keys of a lock
// that grants every attempt. The referee across generators must find (or
// call undecidable) at least 99 % of the overlaps between grants of different generators that
// one referee seeing every grant on one clock counts: here, on one machine,
// every generator's wall clock is the same clock, so that count is the
// pairs whose windows overlap on the wall clock (each generator's grants
// taken back off the masters' clock by its own offset), counted naively.
// Overlaps shorter than the error bounds (tens of µs here) are undecidable,
// so the holds are random (exponential, mean 50 ms): fixed holds on a lock
// that answers at once put every worker in lockstep, each grant starting
// as another ends, and the overlaps would be as short as scheduling noise.
func TestCrossRefereeFindsOverlaps(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 1)
	out := t.TempDir()
	procs := startGenerators(t, lab, 4, out, "-q", "--backend", unsafeBackend, "--workload", "contended", "--keys", "8",
		"--workers", "4", "--hold", "50ms", "--hold-dist", "exp", "--warmup", "200ms", "--duration", "3s")
	waitGenerators(t, procs, 2*time.Minute)
	for _, p := range procs {
		if p.code != exit.OK {
			t.Fatalf("generator %d: exit %d:\n%s", p.index, p.code, p.stderr)
		}
	}
	sum, rep := mergedReport(t, out)
	type span struct {
		gen        int
		start, end int64
	}
	byKey := map[string][]span{}
	for _, e := range rep.Each {
		b, err := os.ReadFile(filepath.Join(out, "gen-0", generators.GrantLogName(e.Generator)))
		if err != nil {
			t.Fatal(err)
		}
		l, err := crossref.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		off := int64(e.OffsetUS * 1e3)
		for _, g := range l.Grants {
			byKey[g.Key] = append(byKey[g.Key], span{e.Generator, g.Granted - off, g.End() - off})
		}
	}
	var truth int64
	for _, ss := range byKey {
		for i, a := range ss {
			for _, b := range ss[i+1:] {
				if a.gen != b.gen && min(a.end, b.end) > max(a.start, b.start) {
					truth++
				}
			}
		}
	}
	v := rep.CrossReferee
	t.Logf("%d grants: %d overlaps across generators on one clock; the cross referee found %d violations, %d undecidable (error bound ≤ %.0f µs)",
		v.Grants, truth, v.Violations, v.Undecidable, v.MaxErrorUS)
	// An overlap shorter than the clocks' error bounds is undecidable, not
	// missed: the bounds grow with the machine's load. Found and
	// undecidable together must cover the overlaps, and the undecidable
	// stay a small share of them.
	if truth == 0 || float64(v.Violations+v.Undecidable) < 0.99*float64(truth) {
		t.Errorf("cross referee found %d of %d overlaps (%d undecidable), want at least 99 %% found or undecidable", v.Violations, truth, v.Undecidable)
	}
	if float64(v.Undecidable) > 0.05*float64(truth) {
		t.Errorf("%d of %d overlaps undecidable (error bound ≤ %.0f µs), want at most 5 %%", v.Undecidable, truth, v.MaxErrorUS)
	}
	if v.Violations > truth+v.Undecidable {
		t.Errorf("cross referee found %d violations, more than the %d overlaps there are", v.Violations, truth)
	}
	if c := sum.Runs[0].Counts; c.Violations < v.Violations || v.Grants != c.Acquired {
		t.Errorf("merged counts: %d violations, %d acquired; the cross referee judged %d grants, found %d violations", c.Violations, c.Acquired, v.Grants, v.Violations)
	}
}

// TestMergedThresholdAbortsEveryGenerator: a latency bound the merged
// histograms break aborts every generator (its workers stop, its window
// ends) within 2 s of the breach being judged, each exiting with the
// threshold's own status, and the summary says why.
func TestMergedThresholdAbortsEveryGenerator(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	procs := startGenerators(t, lab, 4, out, "-q", "--workload", "contended", "--keys", "4", "--workers", "2",
		"--warmup", "200ms", "--duration", "60s", "--threshold", "cycle.p99<1us")
	waitGenerators(t, procs, time.Minute)
	_, rep := mergedReport(t, out)
	if rep.Aborted == nil || rep.Aborted.Kind != generators.Threshold || !strings.Contains(rep.Aborted.Reason, "cycle.p99<1us") {
		t.Fatalf("summary: aborted %+v, want the threshold cycle.p99<1us named", rep.Aborted)
	}
	for _, p := range procs {
		t.Logf("generator %d exited %v after the breach was judged", p.index, p.ended.Sub(rep.Aborted.At).Round(time.Millisecond))
		if p.code != generators.ExitThreshold {
			t.Errorf("generator %d: exit %d, want %d (threshold):\n%s", p.index, p.code, generators.ExitThreshold, p.stderr)
		}
	}
	// Aborted: each generator's measured window ended (its workers all
	// stopped) soon after the breach was judged, not at the end of its
	// 60 s. How soon is the machine's to say; a window that went on would
	// end some 55 s after the breach.
	bound := min(slow.D(10*time.Second), 30*time.Second)
	for _, e := range rep.Each {
		took := e.WindowEnd.Sub(rep.Aborted.At)
		t.Logf("generator %d stopped measuring %v after the breach was judged", e.Generator, took.Round(time.Millisecond))
		if took > bound {
			t.Errorf("generator %d stopped measuring %v after the breach, want within %v (its window was 60 s)", e.Generator, took.Round(time.Millisecond), bound)
		}
	}
	if len(rep.Each) != 4 {
		t.Errorf("summary merges %d generators, want 4", len(rep.Each))
	}
}

// TestGeneratorsUncontendedNeverMeet: in the uncontended workload no two
// workers of the run meet, across generators too: nothing is ever found
// held.
func TestGeneratorsUncontendedNeverMeet(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	procs := startGenerators(t, lab, 2, out, "-q", "--workload", "uncontended", "--workers", "4", "--node-timeout", "500ms",
		"--warmup", "200ms", "--duration", "1500ms")
	waitGenerators(t, procs, 2*time.Minute)
	for _, p := range procs {
		if p.code != exit.OK {
			t.Fatalf("generator %d: exit %d:\n%s", p.index, p.code, p.stderr)
		}
	}
	sum, _ := mergedReport(t, out)
	if c := sum.Runs[0].Counts; c.Acquired == 0 || c.Busy+c.SplitBrain != 0 {
		t.Errorf("merged counts %+v: want acquisitions and no attempt that found its key held", c)
	}
}

// TestGeneratorZeroKilledSharesKept: with generator 0 killed outright
// mid-run no merged run will come, yet every other generator keeps what
// it measured: its share in its --out, written before anything was
// published, and its exit (lost) says where.
func TestGeneratorZeroKilledSharesKept(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	procs := startGenerators(t, lab, 3, out, "--workload", "contended", "--keys", "4", "--workers", "2",
		"--warmup", "200ms", "--duration", "60s")
	procs[0].waitStderr(t, "generators: 3/3 reporting")
	if err := procs[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitGenerators(t, procs, time.Minute)
	for _, p := range procs[1:] {
		dir := filepath.Join(out, fmt.Sprintf("gen-%d", p.index))
		if p.code != generators.ExitLost || !strings.Contains(p.stderr.String(), "share is kept in "+dir) {
			t.Errorf("generator %d: exit %d, want %d saying its share is kept in %s:\n%s", p.index, p.code, generators.ExitLost, dir, p.stderr)
		}
		sum, err := schema.ReadSummary(filepath.Join(dir, "summary.json"))
		if err != nil {
			t.Errorf("generator %d kept no share: %v", p.index, err)
			continue
		}
		if len(sum.Runs) != 1 || sum.Runs[0].Counts.Cycles == 0 {
			t.Errorf("generator %d's share: %d runs, want its one cell with its cycles", p.index, len(sum.Runs))
		}
	}
}
