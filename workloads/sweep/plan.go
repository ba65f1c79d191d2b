package sweep

import (
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/lab"
)

// plan is what target cycles/s needs at the cost per cycle measured at
// the knee (runs: its measurements): cycles/s ≈ busy cores ÷ (client µs +
// server µs per cycle), so the generator needs target × client µs of CPU
// per second and the masters target × server µs between them; a
// redis-server runs its commands on one thread, so a master carries at
// most one core of it. The workers are the rate times the time a cycle
// is in flight (Little's law). Nil when no run measured its cost.
func plan(target float64, runs []schema.Run) *schema.CapacityPlan {
	var client, server, cycle []float64
	p := &schema.CapacityPlan{TargetRate: target}
	for _, r := range runs {
		if r.Cost == nil || r.Counts.Cycles == 0 {
			continue
		}
		client = append(client, r.Cost.ClientCPUUSPerCycle)
		if r.Cost.ServerCPUUSPerCycle > 0 {
			server = append(server, r.Cost.ServerCPUUSPerCycle)
		}
		// The time in flight counts from the actual start: an open loop's
		// service time, a closed loop's latency.
		lat := r.LatencyUS["cycle"]
		if s, ok := r.ServiceUS["cycle"]; ok && s.Count > 0 {
			lat = s
		}
		if lat.Mean > 0 {
			cycle = append(cycle, lat.Mean)
		}
		p.Masters, p.Cores = max(p.Masters, r.Masters), max(p.Cores, r.Cost.Cores)
	}
	if len(client) == 0 {
		return nil
	}
	p.ClientCPUUSPerCycle = stats.Median(client)
	if len(server) > 0 {
		p.ServerCPUUSPerCycle = stats.Median(server)
	}
	if len(cycle) > 0 {
		p.CycleUS = stats.Median(cycle)
	}
	p.GeneratorCores = target * p.ClientCPUUSPerCycle / 1e6
	if p.Masters > 0 {
		p.CoresPerMaster = target * p.ServerCPUUSPerCycle / float64(p.Masters) / 1e6
	}
	p.Workers = target * p.CycleUS / 1e6
	if per := p.ClientCPUUSPerCycle + p.ServerCPUUSPerCycle; p.Cores > 0 && per > 0 {
		p.HereRate = float64(p.Cores) * 1e6 / per
	}
	// What binds first is what the target uses most of: a master's one
	// core, a generator machine's cores (as many as this one's), a
	// process's workers.
	p.Binds = "masters"
	use := p.CoresPerMaster
	if p.Cores > 0 && p.GeneratorCores/float64(p.Cores) > use {
		p.Binds, use = "generator", p.GeneratorCores/float64(p.Cores)
	}
	if p.Workers/lab.MaxWorkers > use {
		p.Binds = "workers"
	}
	return p
}
