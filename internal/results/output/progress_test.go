package output

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// TestProgressPlain: outside a terminal every phase is a whole line: the
// cell header (k of n, time left), the warmup, one labelled line a second.
func TestProgressPlain(t *testing.T) {
	var b strings.Builder
	p := &progress{w: &b, n: 2, start: time.Now(), per: time.Second}
	reg := record.NewRegistry(false)
	reg.NewRecorder().Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	iv := reg.Tick()
	p.Begin("redlock/goredis/fanout/uncontended", 2*time.Second)
	p.Tick(time.Second, iv, reg.Total())
	p.End(schema.Run{})
	p.Begin("redlock/goredis/auto/uncontended", 0)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{"cell 1 of 2: redlock/goredis/fanout/uncontended (~0:02 left)", "warmup 2s…", "now:", "cell 2 of 2: redlock/goredis/auto/uncontended (~0:01 left)"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d %q lacks %q", i, lines[i], w)
		}
	}
	if strings.Contains(b.String(), "\r") {
		t.Error("carriage return outside a terminal")
	}
}

// TestProgressLive: on a terminal one line per cell, rewritten in place,
// never wider than the terminal, ended by a newline with the cell's result.
func TestProgressLive(t *testing.T) {
	var b strings.Builder
	p := &progress{w: &b, n: 16, live: true, width: 40, start: time.Now(), per: 2 * time.Second}
	p.Begin("redlock/rueidis/sequential/uncontended", time.Second)
	p.End(schema.Run{Throughput: schema.Throughput{CyclesPerS: 1234}})
	out := b.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("want one finished line, got %q", out)
	}
	for _, draw := range strings.Split(strings.TrimSuffix(out, "\n"), "\r\033[K") {
		if n := len([]rune(draw)); n >= p.width {
			t.Errorf("drawn %d columns on a %d-column terminal: %q", n, p.width, draw)
		}
	}
	if !strings.Contains(out, "cell 1/16 0:00/~0:32") {
		t.Errorf("no cell k/n elapsed/estimate in %q", out)
	}
}

// TestProgressEstimate: the time left counts each remaining cell at its
// warmup and duration, or at what the cells so far took when that is
// more (their set-up, a loaded machine).
func TestProgressEstimate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		elapsed time.Duration // since the start, at cell 3's start
		want    string
	}{
		{"as planned", 2 * time.Second, "cell 3 of 4: c (~0:02 left)"},
		{"cells took twice their time", 4 * time.Second, "cell 3 of 4: c (~0:04 left)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			p := &progress{w: &b, n: 4, k: 2, start: time.Now().Add(-tc.elapsed), per: time.Second}
			p.Begin("c", 0)
			if got := strings.TrimSpace(b.String()); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}
