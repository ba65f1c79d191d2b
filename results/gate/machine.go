package gate

import (
	"fmt"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// machineDiffers is the ratio of the sides' memory probes beyond which the
// note says the machine's state differed: the medians of compares
// minutes apart on one idle host spread ~1.1–1.3×.
const machineDiffers = 1.25

// machineNote compares the sides' memory probes (schema.Run.MemoryProbeNS,
// the state of the host's caches and memory bus that other tenants share):
// the median of each side's runs, and when they differ by more than
// machineDiffers which metrics carry that difference. "" when either side
// has no probe.
func machineNote(cur, base []schema.Run) string {
	c, b := probeMedian(cur), probeMedian(base)
	if c <= 0 || b <= 0 {
		return ""
	}
	r := c / b
	s := fmt.Sprintf("memory probe: baseline %.0f ns/load, current %.0f ns/load (%.2f×)", b, c, r)
	if r > machineDiffers || r < 1/machineDiffers {
		s += ": the machine's state differed between the sides; cycles/s, latency and CPU µs per cycle may move with it, " +
			"counts per cycle (writes, reads, allocs, commands) do not"
	}
	return s
}

func probeMedian(runs []schema.Run) float64 {
	var xs []float64
	for _, r := range runs {
		if r.MemoryProbeNS > 0 {
			xs = append(xs, r.MemoryProbeNS)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return stats.Median(xs)
}
