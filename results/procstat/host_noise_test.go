package procstat

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

// TestHostNoiseSeesAStolenCPU: with one P and a goroutine that never
// yields beside the probe, the probe's wake-ups wait for the scheduler to
// preempt it (about 10 ms a time): most of each second is lost to
// stalls. The probe's own figures add up: it probed as long as asked.
func TestHostNoiseSeesAStolenCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		x := uint64(1)
		for !stop.Load() {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
		_ = x
	}()
	h := HostNoise(context.Background(), 300*time.Millisecond)
	t.Logf("%+v", h)
	stop.Store(true)
	<-done
	// The probe ends at its first wake-up after 0.3 s: later on a machine
	// that other work keeps busy.
	if late := slow.D(200 * time.Millisecond).Seconds(); h.ProbeS < 0.3 || h.ProbeS > 0.3+late {
		t.Errorf("probed %.3f s, asked 0.3 s (%.3f s late allowed at this load)", h.ProbeS, late)
	}
	if h.StallMSPerS < 200 || h.WakeP99US < 2000 {
		t.Errorf("stalls %.1f ms/s, wake-up p99 %.0f µs beside a goroutine that never yields: want most of the time stalled", h.StallMSPerS, h.WakeP99US)
	}
}

// TestHostNoiseCanceled: a canceled probe reports nothing.
func TestHostNoiseCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if h := HostNoise(ctx, time.Minute); h.ProbeS != 0 {
		t.Errorf("canceled probe reported %+v", h)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("canceled probe took %v", d)
	}
}

// counted is a 2 s probe of the host with stalls counted: time lost per
// second, stalls.
func counted(msPerS float64, stalls int) schema.HostNoise {
	return schema.HostNoise{ProbeS: 2, WakeP99US: 150, StallMSPerS: msPerS, Stalls: stalls}
}

func TestHostChanged(t *testing.T) {
	quiet := schema.HostNoise{ProbeS: 2, WakeP99US: 150, StallMSPerS: 0.5, MemoryNS: 250}
	with := func(f func(*schema.HostNoise)) schema.HostNoise { h := quiet; f(&h); return h }
	cases := []struct {
		name string
		a, b schema.HostNoise
		want []string // nil: not changed
	}{
		{"the same host", quiet, quiet, nil},
		{"a few stalls come and go", quiet, with(func(h *schema.HostNoise) { h.StallMSPerS = 2.4 }), nil},
		{"none, then a few", with(func(h *schema.HostNoise) { h.StallMSPerS = 0 }), with(func(h *schema.HostNoise) { h.StallMSPerS = 2.9 }), nil},
		{"stalls over 3x and 3 ms/s more", quiet, with(func(h *schema.HostNoise) { h.StallMSPerS = 6 }), []string{"stalls 0.5 → 6.0 ms/s"}},
		{"stalls 3 ms/s more but under 3x", with(func(h *schema.HostNoise) { h.StallMSPerS = 4 }), with(func(h *schema.HostNoise) { h.StallMSPerS = 8 }), nil},
		{"quieter after", with(func(h *schema.HostNoise) { h.StallMSPerS = 9 }), quiet, []string{"stalls 9.0 → 0.5 ms/s"}},
		{"wake-ups 2x later and 200 µs more", quiet, with(func(h *schema.HostNoise) { h.WakeP99US = 400 }), []string{"wake-up p99 150µs → 400µs"}},
		{"wake-ups 2x later but under 200 µs more", with(func(h *schema.HostNoise) { h.WakeP99US = 60 }), quiet, nil},
		{"the memory probe does not judge", quiet, with(func(h *schema.HostNoise) { h.MemoryNS = 500 }), nil},
		{"both at once", quiet, schema.HostNoise{WakeP99US: 900, StallMSPerS: 20}, []string{"stalls", "wake-up"}},
		// counted stalls: the time lost must come from more stalls than chance gives
		{"one long stall is not a rate", counted(0, 0), counted(10, 1), nil},
		{"two long stalls against none", counted(0, 0), counted(12, 2), nil},
		{"many stalls against a few", counted(0.5, 2), counted(12, 30), []string{"stalls 0.5 → 12.0 ms/s"}},
		{"many stalls against none", counted(0, 0), counted(6, 12), []string{"stalls 0.0 → 6.0 ms/s"}},
		{"as many stalls, longer ones", counted(1, 10), counted(9, 12), nil},
	}
	for _, c := range cases {
		got := HostChanged(c.a, c.b)
		if (got == "") != (c.want == nil) {
			t.Errorf("%s: hostChanged = %q, want changed %v", c.name, got, c.want != nil)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", c.name, got, w)
			}
		}
	}
}
