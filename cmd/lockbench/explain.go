package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// explainErrors writes, after a table whose errors block lists any, one
// line on what they mean: timeouts on a busy machine are expected, other
// errors are not.
func explainErrors(w io.Writer, cfg RunConfig, runs []schema.Run) {
	if line := errorsNote(cfg, runs, loadAverage(), runtime.NumCPU()); line != "" {
		fmt.Fprintln(w, line)
	}
}

// errorsNote is explainErrors' line for a machine at load (its 1-minute
// load average, negative when unknown) on cpus CPUs; "" without errors.
func errorsNote(cfg RunConfig, runs []schema.Run, load float64, cpus int) string {
	var timeouts, others int64
	listed, stopped := false, false
	for _, r := range runs {
		timeouts += r.Counts.Timeouts
		others += r.Counts.Errors
		for _, m := range r.ErrorsByMaster {
			listed = true
			stopped = stopped || m.NeverAnswered || m.StoppedS != nil
		}
	}
	if !listed {
		return ""
	}
	if len(cfg.Faults) > 0 {
		return "lockbench: the errors above are what --fault did to the servers, and their aftermath"
	}
	bound := "--node-timeout " + cfg.Driver.Redlock.NodeTimeout.String()
	if timeouts == 0 && others == 0 && !stopped {
		// The list counts every command of the whole run; the attempts of
		// the window all succeeded or met a holder.
		return "lockbench: the errors above are commands outside the measured attempts (releases, the warmup," +
			" cycles cut at the window's end): no attempt in the window failed"
	}
	if others == 0 && !stopped {
		line := fmt.Sprintf("lockbench: the errors above are %d timeouts: commands a server did not answer within %s", timeouts, bound)
		switch {
		case load < 0:
			return line + "; expected when the machine is busy"
		case load >= float64(cpus):
			return line + fmt.Sprintf("; expected on this busy machine (load %.1f, %d CPUs)", load, cpus)
		}
		return line + fmt.Sprintf("; on this idle machine (load %.1f, %d CPUs) --workers %d is more than the servers"+
			" answer in time: lower it or raise --node-timeout", load, cpus, cfg.Workload.Workers)
	}
	line := fmt.Sprintf("lockbench: of the errors above, %d are timeouts (over %s, expected under load) and %d are not:"+
		" those are not expected of a healthy server", timeouts, bound, others)
	if stopped {
		line += "; one that STOPPED ANSWERING crashed or was cut off"
	}
	return line
}

// loadAverage is the machine's 1-minute load average, -1 where unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
