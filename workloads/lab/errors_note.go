package lab

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// ErrorsNote is what the errors listed under a table of runs measured
// with c mean, to print right after them (render.TableOptions.ErrorsNote):
// the faults' doing, commands outside the measured attempts, timeouts a
// busy machine explains or an idle one does not, or errors no healthy
// server returns. It names config fields through name (nil: their JSON
// paths), so a CLI shows its flags. "" when no run had errors.
func ErrorsNote(c Config, runs []schema.Run, name func(field string) string) string {
	return errorsNote(c, runs, loadAverage(), runtime.NumCPU(), name)
}

// errorsNote is ErrorsNote on a machine at load (its 1-minute load
// average, negative when unknown) with cpus CPUs.
func errorsNote(c Config, runs []schema.Run, load float64, cpus int, name func(string) string) string {
	if name == nil {
		name = func(f string) string { return f }
	}
	var attemptTimeouts, attemptErrors, others int64
	listed, stopped := false, false
	for _, r := range runs {
		attemptTimeouts += r.Counts.Timeouts
		attemptErrors += r.Counts.Errors
		for _, m := range r.ErrorsByMaster {
			listed = true
			stopped = stopped || m.NeverAnswered || m.StoppedS != nil
			others += m.Errors
			for _, e := range m.Messages {
				if e.Timeout() {
					others -= e.Count
				}
			}
		}
	}
	switch {
	case !listed:
		return ""
	case len(c.Faults) > 0:
		return "these are what the faults did to the servers, and their aftermath"
	case attemptTimeouts == 0 && attemptErrors == 0 && !stopped:
		return "none of the measured attempts failed: these are commands outside them (releases, the warmup, cycles cut at the window's end)"
	}
	window := fmt.Sprintf("of the measured attempts, %d timed out and %d failed (the table's columns)", attemptTimeouts, attemptErrors)
	if others == 0 && !stopped {
		bound := fmt.Sprintf("%s %v", name("driver.redlock.node_timeout"), c.Driver.Redlock.NodeTimeout)
		switch {
		case load < 0:
			return fmt.Sprintf("the timeouts are commands a server did not answer within %s, expected when the machine is busy; %s", bound, window)
		case load >= float64(cpus):
			return fmt.Sprintf("the timeouts are commands a server did not answer within %s, expected on this busy machine (load %.1f, %d CPUs); %s", bound, load, cpus, window)
		}
		return fmt.Sprintf("the timeouts are commands a server did not answer within %s on this idle machine (load %.1f, %d CPUs): %s %d is more than the servers answer in time, lower it or raise the bound; %s",
			bound, load, cpus, name("workload.workers"), c.Workload.Workers, window)
	}
	line := "errors other than timeouts are not expected of a healthy server; " + window
	if stopped {
		line += "; a master that STOPPED ANSWERING crashed or was cut off"
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
