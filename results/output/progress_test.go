package output

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// fakeClock is a progress's clock, moved by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newTestProgress(n int, per time.Duration) (*progress, *strings.Builder, *fakeClock) {
	var b strings.Builder
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := &progress{w: &b, n: n, per: per, now: c.now, start: c.t}
	return p, &b, c
}

// TestProgressOneCell: a single cell's phases are whole lines: its name,
// the warmup, one labelled line a second.
func TestProgressOneCell(t *testing.T) {
	p, b, _ := newTestProgress(1, 0)
	reg := record.NewRegistry(false)
	reg.NewRecorder().Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	iv := reg.Tick()
	p.Begin("redlock/goredis/fanout/uncontended", 2*time.Second)
	p.Tick(time.Second, iv, reg.Total())
	p.End(schema.Run{})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{"redlock/goredis/fanout/uncontended", "warmup 2s…", "now:"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d %q lacks %q", i, lines[i], w)
		}
	}
}

// TestProgressPlainCells: off a terminal a compare of 320 cells writes a
// line at each twentieth of them — twenty lines, each cells done of
// planned, the last without a time left — and nothing per second; verbose,
// a line per cell and per second.
func TestProgressPlainCells(t *testing.T) {
	reg := record.NewRegistry(false)
	iv := reg.Tick()
	for _, verbose := range []bool{false, true} {
		p, b, c := newTestProgress(320, 175*time.Millisecond)
		p.verbose = verbose
		for range 320 {
			p.Begin("cell", 50*time.Millisecond)
			c.advance(200 * time.Millisecond)
			p.Tick(time.Second, iv, reg.Total())
			p.End(schema.Run{})
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		switch {
		case verbose && len(lines) != 640:
			t.Errorf("verbose: %d lines, want a line per cell and per second (640)", len(lines))
		case !verbose && len(lines) != 20:
			t.Errorf("%d lines, want 20:\n%s", len(lines), b.String())
		case !verbose && (lines[0] != "16 of 320 cells (5 %), 0:03 elapsed, ~1:01 left" || lines[19] != "320 of 320 cells (100 %), 1:04 elapsed"):
			t.Errorf("first and last lines:\n%s\n%s", lines[0], lines[19])
		}
		if strings.Contains(b.String(), "\r") {
			t.Error("carriage return outside a terminal")
		}
	}
}

// TestProgressLive: on a terminal one line for the whole command,
// rewritten in place, never wider than the terminal, with a bar, cells
// done and the time left; it ends with a newline after the last cell.
func TestProgressLive(t *testing.T) {
	p, b, c := newTestProgress(16, 2*time.Second)
	p.live, p.width = true, 60
	for range 16 {
		p.Begin("redlock/rueidis/sequential/uncontended", time.Second)
		c.advance(2 * time.Second)
		p.End(schema.Run{Throughput: schema.Throughput{CyclesPerS: 1234}})
	}
	out := b.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("want one line for the command, ended once, got %q", out)
	}
	for _, draw := range strings.Split(strings.TrimSuffix(out, "\n"), "\r\033[K") {
		if n := len([]rune(draw)); n >= p.width {
			t.Errorf("drawn %d columns on a %d-column terminal: %q", n, p.width, draw)
		}
	}
	if !strings.Contains(out, "[##########··········] 9/16 ~0:16 left") {
		t.Errorf("no bar, cells and time left in %q", out)
	}
}

// TestProgressTimeLeftMonotone: cells that take twice as long as planned
// (their set-up) and vary by ±30 % give, after the first cells, a time
// left that never rises for their noise, and is close to the truth from
// its first figure to the end.
func TestProgressTimeLeftMonotone(t *testing.T) {
	const n = 320
	p, _, c := newTestProgress(n, 175*time.Millisecond)
	rng := rand.New(rand.NewPCG(3, 4))
	var shown []time.Duration
	var at []time.Time
	note := func() {
		if p.left > 0 && (len(at) == 0 || !p.shownAt.Equal(at[len(at)-1])) {
			shown, at = append(shown, p.left), append(at, p.shownAt)
		}
	}
	truth := make([]time.Duration, n)
	for i := range truth {
		truth[i] = time.Duration(float64(350*time.Millisecond) * (0.7 + 0.6*rng.Float64()))
	}
	for i := range n {
		p.Begin("c", 0)
		for range 2 {
			c.advance(truth[i] / 2)
			p.timeLeft()
			note()
		}
		p.End(schema.Run{})
		note()
	}
	rises := 0
	for i := 1; i < len(shown); i++ {
		if shown[i] > shown[i-1] {
			rises++
			t.Logf("rose at %d of %d: %v after %v", i, len(shown), shown[i], shown[i-1])
		}
	}
	if rises > 0 {
		t.Errorf("the time left rose %d times for the cells' noise alone", rises)
	}
	// Its first figure, after the settling cells, is within 25 % of the
	// truth.
	var total time.Duration
	for _, d := range truth {
		total += d
	}
	for i := range shown {
		real := total - at[i].Sub(time.Unix(1000, 0))
		if off := float64(shown[i] - real); off > 0.25*float64(real)+float64(time.Second) || -off > 0.25*float64(real)+float64(time.Second) {
			t.Fatalf("figure %d of %d: %v shown, %v truly left", i, len(shown), shown[i], real)
		}
	}
}

// TestProgressTimeLeftRisesOnSlowdown: cells that turn twice as slow
// half-way are not hidden: the time left rises to say so.
func TestProgressTimeLeftRisesOnSlowdown(t *testing.T) {
	p, _, c := newTestProgress(100, 100*time.Millisecond)
	rose := false
	for i := range 100 {
		d := 100 * time.Millisecond
		if i >= 50 {
			d = 400 * time.Millisecond
		}
		p.Begin("c", 0)
		before := p.left
		c.advance(d)
		p.timeLeft()
		rose = rose || (before > 0 && p.left > before)
		p.End(schema.Run{})
	}
	if !rose {
		t.Error("the cells ran four times slower and the time left never rose")
	}
}
