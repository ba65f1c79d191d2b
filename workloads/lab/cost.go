package lab

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
)

// ServerCPU is how the lab reads its masters' CPU (for a ceiling's cost
// beside the cells'): see serverCPU.
func (l *Lab) ServerCPU() (procstat.ServerCPU, func()) { return serverCPU(l.Topo) }

// serverCPU is how a run reads its masters' CPU: /proc for local masters,
// INFO cpu for external ones (which also counts their other clients). The
// closer releases the INFO clients.
func serverCPU(topo *compose.Topology) (procstat.ServerCPU, func()) {
	if topo == nil || len(topo.RedisAddrs) == 0 {
		return procstat.ServerCPU{}, func() {}
	}
	if topo.Redis != nil {
		servers := topo.Redis.Servers
		return procstat.ProcsCPU(func() []int {
			pids := make([]int, len(servers))
			for i, s := range servers {
				pids[i] = s.Pid()
			}
			return pids
		}), func() {}
	}
	// Each master as the cells dial it: its password and TLS, which the
	// redacted addresses do not carry.
	clients := make([]*redis.Client, len(topo.Masters))
	for i, e := range topo.Masters {
		o := e.GoRedis()
		o.DisableIdentity, o.MaxRetries = true, -1
		clients[i] = redis.NewClient(o)
	}
	read := func() (time.Duration, error) {
		var total time.Duration
		for _, c := range clients {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			info, err := c.Info(ctx, "cpu").Result()
			cancel()
			if err != nil {
				return 0, err
			}
			d, err := infoCPU(info)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", c.Options().Addr, err)
			}
			total += d
		}
		return total, nil
	}
	return procstat.ServerCPU{Source: procstat.ServerCPUInfo, Read: read}, func() {
		for _, c := range clients {
			_ = c.Close()
		}
	}
}

// infoCPU is used_cpu_sys + used_cpu_user from an INFO cpu reply.
func infoCPU(info string) (time.Duration, error) {
	var total float64
	found := 0
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || (k != "used_cpu_sys" && k != "used_cpu_user") {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("INFO cpu %s %q: %w", k, v, err)
		}
		total += f
		found++
	}
	if found != 2 {
		return 0, fmt.Errorf("INFO cpu: no used_cpu_sys and used_cpu_user")
	}
	return time.Duration(total * float64(time.Second)), nil
}

// costWindow samples the cost counters at the window's edges (Env.OnWindow):
// the client's and masters' (procstat.SampleCost), the delay line's and
// the whole machine's.
type costWindow struct {
	server, delay      procstat.ServerCPU
	start, end         procstat.CostSample
	delay0, delay1     time.Duration
	delayOK            bool
	machine0, machine1 procstat.MachineCPU
	started            bool
}

func (w *costWindow) edge(end bool) {
	if end {
		w.end = procstat.SampleCost(w.server)
		w.machine1 = procstat.ReadMachineCPU()
		w.delay1, w.delayOK = w.readDelay(w.delayOK)
		return
	}
	w.start, w.started = procstat.SampleCost(w.server), true
	w.machine0 = procstat.ReadMachineCPU()
	w.delay0, w.delayOK = w.readDelay(true)
}

func (w *costWindow) readDelay(ok bool) (time.Duration, bool) {
	if w.delay.Read == nil {
		return 0, false
	}
	d, err := w.delay.Read()
	return d, ok && err == nil
}

// cost is the per-cycle cost over the window; nil if it never started.
func (w *costWindow) cost(cycles int64) *schema.Cost {
	if !w.started {
		return nil
	}
	c := procstat.CostBetween(w.start, w.end, cycles, w.server)
	if c == nil {
		return nil
	}
	if w.delayOK {
		c.DelayCPUUSPerCycle = float64(w.delay1-w.delay0) / 1e3 / float64(cycles)
	}
	if b := procstat.BusyShare(w.machine0, w.machine1); b >= 0 {
		c.MachineCPUBusy, c.Cores = b, runtime.NumCPU()
	}
	return c
}

// probeFigure is a cell's memory probe: the mean of the probe's figures
// just before its warmup and just after its window (the state it met at
// both ends), or the one that was measured; 0 when neither was.
func probeFigure(before, after float64) float64 {
	switch {
	case before > 0 && after > 0:
		return (before + after) / 2
	case before > 0:
		return before
	}
	return after
}
