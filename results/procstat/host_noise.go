package procstat

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/lockbench/lockbench/results/schema"
)

// The host-noise probe: how late the host wakes a sleeping thread, with
// nothing else asked of it. On a shared or virtual host the CPU a run
// gets is taken away now and then for milliseconds (another tenant, the
// hypervisor), which no CPU counter of the guest shows (steal time is
// often not reported) and which a p99 latency objective feels first: a
// few stalls a second move an open loop's p99 near its capacity by more
// than any queueing. Two probes of the same host minutes apart that
// disagree say the host changed between them.
const (
	// noiseTick is the sleep each wake-up is timed against.
	noiseTick = time.Millisecond
	// stallOver is how late a wake-up must be to count as a stall.
	stallOver = time.Millisecond
)

// HostNoise sleeps noiseTick at a time for d (or until ctx is done) and
// reports how late the wake-ups came: their p99, the time lost to
// stalls (each wake-up later than stallOver, the lateness beyond it
// summed) per second probed and how many stalls there were; and the memory probe's figure after it (the
// host's speed). Zero when nothing was probed.
func HostNoise(ctx context.Context, d time.Duration) schema.HostNoise {
	h := hdrhistogram.New(1, int64(10*time.Second/time.Microsecond), 2)
	var stalled time.Duration
	stalls := 0
	t := time.NewTimer(noiseTick)
	defer t.Stop()
	start := time.Now()
	last := start
	for last.Sub(start) < d {
		select {
		case <-ctx.Done():
			return schema.HostNoise{}
		case <-t.C:
			now := time.Now() // when the thread woke, not when the timer fired
			late := now.Sub(last) - noiseTick
			if late > stallOver {
				stalled += late - stallOver
				stalls++
			}
			_ = h.RecordValue(max(int64(late/time.Microsecond), 1))
			last = now
			t.Reset(noiseTick)
		}
	}
	probed := last.Sub(start).Seconds()
	return schema.HostNoise{
		ProbeS:      probed,
		WakeP99US:   float64(h.ValueAtQuantile(99)),
		StallMSPerS: float64(stalled) / float64(time.Millisecond) / probed,
		Stalls:      stalls,
		MemoryNS:    SharedMemoryProbe().Measure(),
	}
}

// How far two probes of the host may differ and still be the same host:
// the stall time per second by hostStallFactor times the larger of the
// smaller and hostStallFloor, and by more than hostStallMS; the wake-ups'
// p99 by hostWakeFactor and more than hostWakeUS. Measured on an idle
// 2-core VM, ten 2 s probes in a row gave stalls of 0–2.3 ms/s and
// wake-up p99s of 173–230 µs: none of them differ by these bounds. The
// memory probe is kept beside them but does not judge: idle, the same
// ten gave 177–334 ns. A quiet host's stalls come in bursts, a few
// events a probe (one 20 ms stall is 10 ms/s of a 2 s probe), so the
// stall time must also come from more stalls than chance gives two
// probes of one host: their counts apart by a two-sided exact test of
// two Poisson rates at hostStallP.
const (
	hostStallP      = 0.01
	hostStallFactor = 3
	hostStallFloor  = 1.0 // ms/s: a quiet host's few stalls come and go
	hostStallMS     = 3.0
	hostWakeFactor  = 2
	hostWakeUS      = 200.0
)

// HostChanged says how the host's noise differs between two probes (a
// before b), "" when they are within the bounds above: the same host.
func HostChanged(a, b schema.HostNoise) string {
	var out []string
	if lo, hi := min(a.StallMSPerS, b.StallMSPerS), max(a.StallMSPerS, b.StallMSPerS); hi-lo > hostStallMS && hi > hostStallFactor*max(lo, hostStallFloor) &&
		stallRatesDiffer(a, b) {
		out = append(out, fmt.Sprintf("stalls %.1f → %.1f ms/s", a.StallMSPerS, b.StallMSPerS))
	}
	if lo, hi := min(a.WakeP99US, b.WakeP99US), max(a.WakeP99US, b.WakeP99US); hi-lo > hostWakeUS && hi > hostWakeFactor*lo {
		out = append(out, fmt.Sprintf("wake-up p99 %s → %s", wakeText(a.WakeP99US), wakeText(b.WakeP99US)))
	}
	return strings.Join(out, ", ")
}

// wakeText is a wake-up lateness in µs as a duration ("150µs", "2.1ms").
func wakeText(us float64) string { return time.Duration(us * 1e3).Round(time.Microsecond).String() }

// stallRatesDiffer: a's and b's stall counts are more apart than two
// probes of one stall rate give by chance (p < hostStallP): given the
// stalls of both, a's share of them is binomial with a's share of the
// time probed, under a rate of their own. A probe without counts (an
// older result: time lost, no count) is judged by the time lost alone.
func stallRatesDiffer(a, b schema.HostNoise) bool {
	if (a.Stalls == 0 && a.StallMSPerS > 0) || (b.Stalls == 0 && b.StallMSPerS > 0) || a.ProbeS <= 0 || b.ProbeS <= 0 {
		return true
	}
	n := a.Stalls + b.Stalls
	if n == 0 {
		return false
	}
	bin := distuv.Binomial{N: float64(n), P: a.ProbeS / (a.ProbeS + b.ProbeS)}
	k := float64(a.Stalls)
	// Two-sided: twice the smaller tail, at most 1.
	tail := math.Min(bin.CDF(k), 1-bin.CDF(k-1))
	return 2*tail < hostStallP
}
