package procstat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// Server CPU sources.
const (
	ServerCPUProc = "proc"
	ServerCPUInfo = "info"
)

// ServerCPU reads the masters' cumulative CPU time, all masters together.
type ServerCPU struct {
	Source string
	Read   func() (time.Duration, error)
}

// CostSample is one reading of every counter a Cost is made of.
type CostSample struct {
	client       time.Duration
	syscw, syscr uint64
	mallocs      uint64
	server       time.Duration
	serverOK     bool
	serverErr    error
}

// SampleCost reads the process's counters and, if server.Read is set, the
// masters' CPU. A counter that cannot be read is left out of the Cost.
func SampleCost(server ServerCPU) CostSample {
	var s CostSample
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.client = rusageCPU(ru)
	}
	s.syscw, s.syscr, _ = selfIO()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.mallocs = m.Mallocs
	if server.Read != nil {
		d, err := server.Read()
		s.server, s.serverOK, s.serverErr = d, err == nil, err

	}
	return s
}

// CostBetween is the cost per cycle from a to b over cycles cycles; nil
// when no cycle completed.
func CostBetween(a, b CostSample, cycles int64, server ServerCPU) *schema.Cost {
	if cycles <= 0 {
		return nil
	}
	n := float64(cycles)
	c := &schema.Cost{
		ClientCPUUSPerCycle:  float64(b.client-a.client) / 1e3 / n,
		ClientWritesPerCycle: float64(b.syscw-a.syscw) / n,
		ClientReadsPerCycle:  float64(b.syscr-a.syscr) / n,
		AllocsPerCycle:       float64(b.mallocs-a.mallocs) / n,
	}
	switch {
	case a.serverOK && b.serverOK:
		c.ServerCPUUSPerCycle = float64(b.server-a.server) / 1e3 / n
		c.ServerCPUSource = server.Source
	case a.serverErr != nil:
		c.ServerCPUError = a.serverErr.Error()
	case b.serverErr != nil:
		c.ServerCPUError = b.serverErr.Error()
	}
	return c
}

func rusageCPU(ru syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ChildrenCPU is the CPU of the process's waited-for children (getrusage
// RUSAGE_CHILDREN): what redis-benchmark cost the ceiling's client side.
func ChildrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return rusageCPU(ru)
}

// selfIO reads the write and read syscall counts of this process.
func selfIO() (syscw, syscr uint64, err error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := bytes.Cut(sc.Bytes(), []byte(": "))
		if !ok {
			continue
		}
		switch string(k) {
		case "syscw":
			syscw, err = strconv.ParseUint(string(v), 10, 64)
		case "syscr":
			syscr, err = strconv.ParseUint(string(v), 10, 64)
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return syscw, syscr, nil
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// procCPU is a process's user + system CPU from /proc/<pid>/stat (all its
// threads).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseProcStat(pid, b)
}

func parseProcStat(pid int, b []byte) (time.Duration, error) {
	// The command name (field 2) may hold spaces: fields count from the
	// last ')'. utime and stime are fields 14 and 15.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no ')'", pid)
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	var ticks uint64
	for _, s := range f[11:13] { // fields 14, 15 (f[0] is field 3)
		v, err := strconv.ParseUint(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// ProcsCPU sums ProcCPU over the pids pids returns at each read (a master
// restarted mid-run has a new pid; the old process's CPU is then lost).
func ProcsCPU(pids func() []int) ServerCPU {
	return ServerCPU{Source: ServerCPUProc, Read: func() (time.Duration, error) {
		var total time.Duration
		for _, p := range pids() {
			if p == 0 {
				continue // stopped
			}
			d, err := procCPU(p)
			if err != nil {
				return 0, err
			}
			total += d
		}
		return total, nil
	}}
}
