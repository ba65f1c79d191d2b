package sweep

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// intervalText is a knee interval in its unit, "-" when none was
// measured.
func intervalText(by By, iv []float64) string {
	if len(iv) != 2 {
		return "-"
	}
	if by == ByWorkers {
		return fmt.Sprintf("%.0f–%.0f workers", iv[0], iv[1])
	}
	return fmt.Sprintf("%.0f–%.0f/s", iv[0], iv[1])
}

// curveNotes are what the knees table says of s under it: why its
// interval is as wide as it is, a safe rate under the knee, a noise floor
// near the SLO, a host that changed under it, its USL fit and its plan.
func curveNotes(s schema.Sweep, c Config) []string {
	var out []string
	if len(s.KneeInterval) == 2 && len(s.Probes) > 0 {
		rounds := len(s.Probes[0].OK)
		out = append(out, fmt.Sprintf("%s: a rerun's knee lands in %s (%d interleaved rounds of the probes %s): %s",
			s.Name, intervalText(c.By, s.KneeInterval), rounds, probesText(c.By, s.Probes), strings.Join(s.IntervalWhy, "; ")))
	}
	knee := c.By.Load(s.Steps[s.Knee])
	switch {
	case s.SafeRate == 0:
		out = append(out, fmt.Sprintf("%s: no load at or under the knee met the SLO in every measurement: no rate is safe to promise", s.Name))
	case s.SafeRate < knee:
		out = append(out, fmt.Sprintf("%s: safe rate %s: the highest load every measurement of which met the SLO (the knee's did not all)",
			s.Name, loadText(c.By, s.SafeRate)))
	}
	for _, st := range s.Steps {
		if st.Noise {
			out = append(out, fmt.Sprintf("%s: %s failed on its p99 but a load half a step above it held: taken for noise, the climb went on",
				s.Name, loadText(c.By, c.By.Load(st))))
		}
	}
	out = append(out, floorNote(s)...)
	out = append(out, hostNote(s)...)
	if u := s.USL; u != nil {
		peak := "no peak (κ = 0)"
		if u.PeakWorkers > 0 {
			peak = fmt.Sprintf("peak at %.0f workers", u.PeakWorkers)
		}
		out = append(out, fmt.Sprintf("%s: USL fit λ = %.0f cycles/s per worker, σ = %.4f, κ = %.6f, %s, R² = %.3f",
			s.Name, u.Lambda, u.Sigma, u.Kappa, peak, u.R2))
	}
	if p := s.Plan; p != nil {
		out = append(out, planText(s.Name, p))
	}
	return out
}

// floorNote names s's noise floor when it is over floorShare of the SLO.
func floorNote(s schema.Sweep) []string {
	if s.SLOUS == 0 || s.FloorP99US <= floorShare*s.SLOUS {
		return nil
	}
	return []string{fmt.Sprintf("%s: the noise floor (%s p99 at the lowest steps) is %v, %.0f%% of the SLO: the host's own noise, "+
		"not queueing, may decide the knee", s.Name, s.Op, usText(s.FloorP99US), 100*s.FloorP99US/s.SLOUS)}
}

// probesText lists probes' loads with how many rounds each held.
func probesText(by By, probes []schema.SweepProbe) string {
	var parts []string
	for _, p := range probes {
		parts = append(parts, fmt.Sprintf("%s held %d/%d", loadText(by, p.Load), count(p.OK), len(p.OK)))
	}
	return strings.Join(parts, ", ")
}

// planText is a plan as one note.
func planText(name string, p *schema.CapacityPlan) string {
	t := fmt.Sprintf("%s: plan for %.0f cycles/s at %.1f µs client + %.1f µs server CPU per cycle: %.2f generator cores, "+
		"%.2f cores per master (of %d), %.0f workers (%.0f µs in flight per cycle); binds first: %s",
		name, p.TargetRate, p.ClientCPUUSPerCycle, p.ServerCPUUSPerCycle, p.GeneratorCores, p.CoresPerMaster, p.Masters,
		math.Ceil(p.Workers), p.CycleUS, p.Binds)
	if p.CoresPerMaster > 1 {
		t += fmt.Sprintf(" (a master runs on one core: %.0f masters would carry it)", math.Ceil(p.CoresPerMaster*float64(p.Masters)))
	}
	if p.HereRate > 0 {
		t += fmt.Sprintf("; this machine's %d cores at that cost carry ≈ %.0f cycles/s", p.Cores, p.HereRate)
	}
	return t
}

// usText is µs as a duration.
func usText(us float64) time.Duration { return time.Duration(us * 1e3).Round(time.Microsecond) }
