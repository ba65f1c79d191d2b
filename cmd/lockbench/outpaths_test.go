package main

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// storedRun writes a run directory as `run --out dir` leaves it (summary,
// config, a cycle and an acquire interval log, manifest), without servers:
// 500 cycles/s for 3 s from started, on host.
func storedRun(t *testing.T, dir string, started time.Time, host string) string {
	t.Helper()
	sum, err := schema.NewSummary(started, map[string]any{"workload": map[string]any{"name": "uncontended"}})
	if err != nil {
		t.Fatal(err)
	}
	sum.Host.Hostname = host
	name := "redlock/goredis/fanout/uncontended"
	logs := record.RunLogs{}
	for _, op := range []string{"cycle", "acquire"} {
		for i := range 3 {
			h := record.NewHistogram()
			s := started.UnixMilli() + int64(i)*1000
			h.SetStartTimeMs(s)
			h.SetEndTimeMs(s + 1000)
			for range 500 {
				_ = h.RecordValue(20_000)
			}
			logs[op] = append(logs[op], h)
		}
	}
	sum.Runs = []schema.Run{{Name: name, Backend: "redlock", Client: "goredis", Mux: "fanout", Workload: "uncontended", Masters: 3, Workers: 4,
		DurationS: 3, Counts: schema.Counts{Attempts: 1500, Acquired: 1500, Cycles: 1500}}}
	w := output.Writer{Stdout: new(strings.Builder), NoTable: true, Out: dir}
	if err := w.Write(sum, map[string]output.Logs{name: output.MergedLogs(logs)}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOutputsNeverDestroy: no command overwrites one of its inputs, writes
// one file for two outputs, replaces a file it did not write or writes
// into stdout's file behind its back; each is refused as one line naming
// the flag, exit 2, with nothing changed.
func TestOutputsNeverDestroy(t *testing.T) {
	root := t.TempDir()
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := storedRun(t, filepath.Join(root, "a"), t0, "box-a")
	b := storedRun(t, filepath.Join(root, "b"), t0.Add(1400*time.Millisecond), "box-b")
	foreign := filepath.Join(root, "foreign")
	must(t, os.Mkdir(foreign, 0o755))
	writeFile(t, filepath.Join(foreign, "summary.json"), `{"mine": true}`)
	foreignLog := filepath.Join(root, "foreign-log")
	must(t, os.Mkdir(foreignLog, 0o755))
	writeFile(t, filepath.Join(foreignLog, "x.cycle.hlog"), "not lockbench's")
	password := filepath.Join(root, "password")
	writeFile(t, password, "s3cret\n")
	stdoutFile, err := os.Create(filepath.Join(root, "stdout.txt"))
	must(t, err)
	defer stdoutFile.Close()
	stdoutLink := filepath.Join(root, "stdout-link")
	must(t, os.Symlink(stdoutFile.Name(), stdoutLink))
	held := filepath.Join(root, "held")
	claim := output.Writer{Out: held}
	release, err := claim.ClaimOut()
	must(t, err)
	must(t, claim.Dir.Replace([]output.NamedFile{{Name: "summary.json", Data: []byte("{}")}}))
	defer release()
	short := []string{"--masters", "1", "--workers", "1", "--duration", "200ms", "--warmup", "0s", "-q"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"report over its input's summary", []string{"report", a, "-o", filepath.Join(a, "summary.json")}, `--out "` + a + `/summary.json": is read by input`},
		{"report over its input's interval log", []string{"report", a, "-o", filepath.Join(a, "redlock-goredis-fanout-uncontended.cycle.hlog")}, "is read by input"},
		{"report over an input file given", []string{"report", filepath.Join(a, "summary.json"), "-o", filepath.Join(a, "summary.json")}, "is read by input"},
		{"report into a device", []string{"report", a, "-o", "/dev/null"}, "is a device"},
		{"report into stdout's file", []string{"report", a, "-o", stdoutFile.Name()}, "is this command's stdout"},
		{"run --json is --cpuprofile", append([]string{"compare", "--muxes", "sequential", "--json", filepath.Join(root, "x"), "--cpuprofile", filepath.Join(root, "x")}, short...), `--cpuprofile "` + root + `/x": is also written by --json`},
		{"run --json inside --out", append([]string{"run", "--out", filepath.Join(root, "d"), "--json", filepath.Join(root, "d", "config.json")}, short...), "is also written by --out"},
		{"run --json an hlog of --out", append([]string{"run", "--out", a, "--json", filepath.Join(a, "new.cycle.hlog")}, short...), "is also written by --out"},
		{"run --json is --out", append([]string{"run", "--out", filepath.Join(root, "same"), "--json", filepath.Join(root, "same")}, short...), "is also written by --out"},
		{"run --out -", append([]string{"run", "--out", "-"}, short...), `--out "-": - is stdout; want a directory`},
		{"run --out a device", append([]string{"run", "--out", "/dev/null"}, short...), "--out"},
		{"run --json over the password file", append([]string{"run", "--redis", "127.0.0.1:1", "--redis-password-file", password, "--json", password}, short[2:]...),
			`--json "` + password + `": is read by --redis-password-file`},
		{"run --json into stdout's file", append([]string{"run", "--json", stdoutFile.Name()}, short...), "is this command's stdout"},
		{"run --json through a link to stdout's file", append([]string{"run", "--json", stdoutLink}, short...), "is this command's stdout"},
		{"run --cpuprofile -", append([]string{"compare", "--muxes", "sequential", "--cpuprofile", "-"}, short...), "--cpuprofile -"},
		{"run --out holding a foreign summary", append([]string{"run", "--out", foreign}, short...), `--out "` + foreign + `": holds summary.json, which lockbench did not write`},
		{"run --out holding a foreign log", append([]string{"run", "--out", foreignLog}, short...), "holds x.cycle.hlog"},
		{"sweep --out holding a foreign summary", append([]string{"sweep", "--by", "workers", "--start", "1", "--max-steps", "1", "--out", foreign}, short...), "holds summary.json"},
		{"compare --out holding a foreign summary", append([]string{"compare", "--muxes", "sequential", "--out", foreign}, short...), "holds summary.json"},
		{"run --out held by a live run", append([]string{"run", "--out", held}, short...), "is being written by another running lockbench (pid"},
		{"merge into a foreign result", []string{"merge", a, b, "-o", foreign}, "holds summary.json"},
		{"merge into a held directory", []string{"merge", a, b, "-o", held}, "another running lockbench"},
		{"merge -o -", []string{"merge", a, b, "-o", "-"}, "- is stdout"},
		{"scenario --json into stdout's file", []string{"scenario", "minority-down", "--json", stdoutFile.Name()}, "is this command's stdout"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := listContents(t, root)
			cwdBefore := listTree(t, ".")
			var stderr strings.Builder
			code := executeIO(context.Background(), tc.args, stdoutFile, &stderr)
			if code != exit.Usage {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, exit.Usage, stderr.String())
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("stderr %q: want one line with %q", stderr.String(), tc.want)
			}
			if after := listContents(t, root); after != before {
				t.Fatalf("files changed on refused input:\nbefore %s\nafter  %s", before, after)
			}
			if after := listTree(t, "."); after != cwdBefore {
				t.Fatalf("the working directory changed: %s", after)
			}
		})
	}
}

// listContents is every path under dir with its content or link target
// (lock files aside: their pid line changes with every claim).
func listContents(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(strings.TrimPrefix(p, dir))
		if to, err := os.Readlink(p); err == nil {
			b.WriteString(" -> " + to)
		} else if !e.IsDir() && e.Name() != lockName {
			c, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" = " + string(c))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(s), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOutputsWrittenAsAsked: report writes through a symlink (the link
// stays); merge into a directory holding a result it wrote replaces it and
// says so; two 500/s runs started 1.4 s apart merge to 1,000/s.
func TestOutputsWrittenAsAsked(t *testing.T) {
	root := t.TempDir()
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := storedRun(t, filepath.Join(root, "a"), t0, "box-a")
	b := storedRun(t, filepath.Join(root, "b"), t0.Add(1400*time.Millisecond), "box-b")

	target := filepath.Join(root, "published.html")
	writeFile(t, target, "old")
	link := filepath.Join(root, "latest.html")
	must(t, os.Symlink(target, link))
	if _, stderr, code := runIn(context.Background(), "report", a, "-o", link); code != exit.OK {
		t.Fatalf("report -o link: exit %d: %s", code, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("report replaced the symlink %s: %v", link, err)
	}
	if html, _ := os.ReadFile(target); !strings.Contains(string(html), "<html") {
		t.Fatalf("the link's target holds %.40q, want the report", html)
	}

	m := filepath.Join(root, "m")
	for i, wantNote := range []bool{false, true} {
		_, stderr, code := runIn(context.Background(), "merge", "-q", a, b, "-o", m)
		if code != exit.OK {
			t.Fatalf("merge %d: exit %d: %s", i, code, stderr)
		}
		if got := strings.Contains(stderr, "replacing the earlier result lockbench wrote in "+m); got != wantNote {
			t.Fatalf("merge %d: stderr %q: note of the replaced result %v, want %v", i, stderr, got, wantNote)
		}
	}
	sum, err := schema.ReadSummary(filepath.Join(m, "summary.json"))
	must(t, err)
	if got := sum.Runs[0].Throughput.CyclesPerS; math.Abs(got-1000) > 10 {
		t.Fatalf("two 500/s runs 1.4 s apart merged to %.0f cycles/s, want 1000", got)
	}
}

// TestMergeRefusesWhatGateRefuses: an input summary with negative counts,
// without runs, with a run twice or of an unknown schema is refused as one
// line naming it, exit 2, and nothing is written.
func TestMergeRefusesWhatGateRefuses(t *testing.T) {
	root := t.TempDir()
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := storedRun(t, filepath.Join(root, "a"), t0, "box-a")
	b := storedRun(t, filepath.Join(root, "b"), t0.Add(300*time.Millisecond), "box-b")
	for _, c := range []struct {
		name string
		edit func(s *schema.Summary)
		want string
	}{
		{"negative cycles", func(s *schema.Summary) { s.Runs[0].Counts.Cycles = -1500 }, "counts.cycles -1500"},
		{"negative violations", func(s *schema.Summary) { s.Runs[0].Counts.Violations = -1 }, "counts.violations -1"},
		{"no runs", func(s *schema.Summary) { s.Runs = nil }, "no runs"},
		{"a run twice", func(s *schema.Summary) { s.Runs = append(s.Runs, s.Runs[0]) }, "twice"},
		{"unknown schema", func(s *schema.Summary) { s.Schema = "lockbench/v9" }, "unknown schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := writeVariant(t, filepath.Join(b, "summary.json"), filepath.Join(b, "bad.json"), c.edit)
			out := filepath.Join(root, "out")
			refused(t, c.want, "merge", a, bad, "-o", out)
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a refused merge left %s: %v", out, err)
			}
		})
	}
}

// TestConcurrentRunsShareNoOut: a second run given the --out of a run in
// progress is refused before it starts anything; the first one's result is
// written whole.
func TestConcurrentRunsShareNoOut(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	redis := startMasters(t, 3)
	out := filepath.Join(t.TempDir(), "run")
	first := make(chan int, 1)
	var firstErr string
	go func() {
		// --allow-failures: what is tested is the claim on --out, not how
		// many attempts a loaded machine gets through.
		_, stderr, code := runIn(context.Background(), runArgs(redis, out, "--duration", "3s", "--allow-failures")...)
		firstErr = stderr
		first <- code
	}()
	deadline := time.Now().Add(60 * time.Second)
	for { // the first run holds the lock once its pid is in the lock file
		if b, _ := os.ReadFile(filepath.Join(out, lockName)); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run never claimed --out")
		}
		time.Sleep(10 * time.Millisecond)
	}
	refused(t, "is being written by another running lockbench", runArgs(redis, out, "--duration", "300ms")...)
	if code := <-first; code != exit.OK {
		t.Fatalf("first run: exit %d:\n%s", code, firstErr)
	}
	d, err := rundir.ReadRunDir(out)
	must(t, err)
	if len(d.Summary.Runs) != 1 || d.Summary.Runs[0].DurationS < 2 {
		t.Fatalf("--out holds %d runs (%.1f s), want the first run's", len(d.Summary.Runs), d.Summary.Runs[0].DurationS)
	}
}

// lockName is the lock file a claimed --out holds while a run writes it.
const lockName = ".lockbench.lock"
