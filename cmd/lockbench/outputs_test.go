package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// run runs lockbench in-process and returns stdout, stderr and the exit code.
func runIn(ctx context.Context, args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := executeIO(ctx, args, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// Output paths are proved before anything starts: a refused one is one line
// naming the flag, exit 2, and the directory holds nothing new afterwards
// (no result, no temp file). The runs are short so that, were a path
// accepted by mistake, the test fails on the exit status and not a timeout.
func TestOutputPathsRefusedBeforeStart(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "existing-dir")
	file := filepath.Join(dir, "a-file")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := []string{"--masters", "1", "--workers", "1", "--duration", "200ms", "--warmup", "0s", "-q"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"run --json existing dir", append([]string{"run", "--json", sub}, short...), "--json"},
		{"run --json trailing slash", append([]string{"run", "--json", dir + "/new/"}, short...), "--json"},
		{"run --json missing parent", append([]string{"run", "--json", filepath.Join(dir, "no", "s.json")}, short...), "--json"},
		{"run --json under a file", append([]string{"run", "--json", filepath.Join(file, "s.json")}, short...), "--json"},
		{"run --out is a file", append([]string{"run", "--out", file}, short...), "--out"},
		{"compare --json existing dir", append([]string{"compare", "--muxes", "sequential", "--json", sub}, short...), "--json"},
		{"sweep --json existing dir", append([]string{"sweep", "--by", "workers", "--start", "1", "--max-steps", "1", "--json", sub}, short...), "--json"},
		{"scenario --json existing dir", []string{"scenario", "minority-down", "--json", sub}, "--json"},
		{"report -o existing dir", []string{"report", sub, "-o", sub}, "--out"},
		{"compare --cpuprofile existing dir", append([]string{"compare", "--muxes", "sequential", "--cpuprofile", sub}, short...), "--cpuprofile"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := listTree(t, dir)
			stdout, stderr, code := runIn(context.Background(), tc.args...)
			if code != exit.Usage {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exit.Usage, stdout, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q: want one line naming %s", stderr, tc.want)
			}
			if after := listTree(t, dir); after != before {
				t.Fatalf("files changed on refused input:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// listTree names every file and directory under dir.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		names = append(names, strings.TrimPrefix(p, dir))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(names, " ")
}

// Reusing --out replaces the earlier result: every interval log left in
// the directory belongs to a run of its summary.json.
func TestOutReuseRemovesStaleArtefacts(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	redis := startMasters(t, 3)
	out := filepath.Join(t.TempDir(), "run")
	for _, mux := range []string{"fanout", "sequential"} {
		if _, stderr, code := runIn(context.Background(), runArgs(redis, out, "--duration", "300ms", "--mux", mux)...); code != exit.OK {
			t.Fatalf("run --mux %s: exit %d: %s", mux, code, stderr)
		}
	}
	d, err := rundir.ReadRunDir(out)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	logs := 0
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") && n != ".lockbench-manifest.json" && n != lockName {
			t.Errorf("temp file %s left behind", n)
		}
		if !strings.HasSuffix(n, ".hlog") {
			continue
		}
		logs++
		owned := false
		for _, r := range d.Summary.Runs {
			owned = owned || strings.HasPrefix(n, record.Slug(r.Name)+".")
		}
		if !owned {
			t.Errorf("%s: a log of no run in summary.json (runs %v)", n, runNames(d.Summary.Runs))
		}
	}
	if logs == 0 {
		t.Fatal("no interval logs written")
	}
}

func runNames(runs []schema.Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Name)
	}
	return out
}

// Ctrl-C while the servers are being reached: exit 130, and the last word
// says nothing was written (and nothing was). The fake master accepts the
// connection and never answers, so the start-up is in progress for sure
// when the signal (ctx cancel) comes.
func TestInterruptDuringStartupWritesNothing(t *testing.T) {
	t.Parallel() // its own listener and files; waits out the interrupted start-up: overlaps the other parallel tests
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		cancel() // the PING is in flight: interrupt now
		_, _ = io.Copy(io.Discard, c)
	}()
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := runIn(ctx, "run", "--redis", ln.Addr().String(), "--duration", "1s", "-q", "--json", out)
	if code != exit.Interrupted {
		t.Fatalf("exit %d, want %d: %s", code, exit.Interrupted, stderr)
	}
	if !strings.Contains(stderr, "nothing was written") || strings.Contains(stderr, "has been written") {
		t.Fatalf("stderr %q: want it to say nothing was written", stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("%s exists after an interrupted start-up", out)
	}
}

// Every --json - is pure JSON on stdout: one value and nothing else, all
// text on stderr. In-process, with os.Stdout swapped for a pipe that must
// stay empty: a stray write to os.Stdout instead of the command's writer is
// what this guards against.
func TestJSONStdoutIsPure(t *testing.T) {
	testenv.Servers(t)
	redis := startMasters(t, 3)
	// Paced (--rate): what stdout holds is tested, not throughput.
	short := []string{"--redis", redis, "--workers", "2", "--rate", "200", "--duration", "300ms", "--warmup", "0s", "--json", "-"}
	tests := []struct {
		name string
		args []string
	}{
		{"run", append([]string{"run"}, short...)},
		{"compare", append([]string{"compare", "--muxes", "sequential,fanout"}, short...)},
		{"sweep", append([]string{"sweep", "--by", "workers", "--start", "1", "--max-steps", "1", "--refine", "0", "--slo", "1s"}, short...)},
		{"scenario", []string{"scenario", "minority-down", "--json", "-"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr string
			var code int
			if stray := osStdout(t, func() { stdout, stderr, code = cli(t, 3*time.Minute, tc.args...) }); stray != "" {
				t.Errorf("written to os.Stdout, not the command's stdout: %.200q", stray)
			}
			if code != exit.OK && !(tc.name == "scenario" && code == exit.Failure) { // a scenario may measure other than expected

				t.Fatalf("exit %d\nstderr: %s", code, stderr)
			}
			dec := json.NewDecoder(strings.NewReader(stdout))
			var sum schema.Summary
			if err := dec.Decode(&sum); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
			}
			var extra json.RawMessage
			if err := dec.Decode(&extra); err != io.EOF {
				t.Fatalf("stdout has more after the JSON: %v %s", err, extra)
			}
			if sum.Schema != schema.Schema || len(sum.Runs) == 0 {
				t.Fatalf("stdout JSON is not a summary with runs: %.200s", stdout)
			}
		})
	}
}

// osStdout runs f with os.Stdout swapped for a pipe and returns what was
// written to it.
func osStdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	orig := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = orig }()
	f()
	os.Stdout = orig
	_ = w.Close()
	return <-got
}

// --version names the module version and the toolchain from the build info.
func TestVersion(t *testing.T) {
	stdout, stderr, code := runIn(context.Background(), "--version")
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "lockbench "+version()+"\n" || !strings.Contains(stdout, runtime.Version()) {
		t.Fatalf("--version printed %q", stdout)
	}
}
