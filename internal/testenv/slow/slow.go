// Package slow scales the time limits of tests for a loaded machine: a
// deadline that holds on an idle one (a 200 ms node timeout, a wait for a
// phase line) is multiplied by Factor on a busy one, so that a test fails
// on what it names and not on the neighbours' load.
//
// Factor is the environment variable LOCKBENCH_TEST_SLOW when it is set (a
// number ≥ 1, e.g. LOCKBENCH_TEST_SLOW=4 on a shared CI runner), else
// 1 + (1-minute load average − CPUs) / CPUs when the machine is
// oversubscribed, at most 8. WaitingTests, for the packages whose parallel
// tests mostly wait on servers, lets more of them run at once than the
// CPUs; CPU gives the tests that drive servers flat out one machine-wide
// slot per CPU, across every test binary go test runs at once; NodeTimeout
// is a client's per-master timeout so scaled; WatchCPU measures how long
// the process waited for a CPU, so that a judgement of liveness within a
// fixed time is skipped, saying why, when the machine starved it
// (Starved). It owns nothing else and
// imports no package of the project; only tests and test kits import it.
package slow

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// EnvVar overrides the factor read from the load average.
const EnvVar = "LOCKBENCH_TEST_SLOW"

// maxFactor bounds the automatic factor: a test that needs more than 8×
// its idle time limit is not slow, it is stuck.
const maxFactor = 8

// Factor is how many times slower than idle this machine is now (≥ 1).
func Factor() float64 {
	if v := os.Getenv(EnvVar); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 1 {
			return f
		}
	}
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	return fromLoad(string(b), runtime.NumCPU())
}

// fromLoad is the factor for a /proc/loadavg line on cpus CPUs.
func fromLoad(loadavg string, cpus int) float64 {
	fields := strings.Fields(loadavg)
	if len(fields) == 0 || cpus < 1 {
		return 1
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	if err != nil || load <= float64(cpus) {
		return 1
	}
	return min(1+(load-float64(cpus))/float64(cpus), maxFactor)
}

// D is d scaled by Factor.
func D(d time.Duration) time.Duration { return time.Duration(float64(d) * Factor()) }
