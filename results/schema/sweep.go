package schema

// A capacity sweep's result (lockbench sweep), as sweep.json holds it:
// each strategy's steps of rising load and its knee. The sweep itself
// (stepping, judging a step) is workloads/sweep; the HTML report draws
// these.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Sweep is one strategy's capacity sweep: its steps and the knee, the
// highest step that kept p99 of Op under the SLO without errors.
type Sweep struct {
	Name    string      `json:"name"`
	Op      string      `json:"op"`
	SLOUS   float64     `json:"slo_us"`
	Stepped string      `json:"stepped"` // "rate" or "workers"
	Steps   []SweepStep `json:"steps"`
	Knee    int         `json:"knee"` // index into Steps; -1: even the first step failed
	// BadLoad is the lowest load confirmed to fail (rate or workers, as
	// Stepped): the capacity lies between the knee's load and it. 0: no
	// step failed (the knee is the highest load measured).
	BadLoad float64 `json:"bad_load,omitempty"`
	// Repeat is the measurements that decide a failing step, the step
	// below it and each bisection step (on their medians).
	Repeat int `json:"repeat,omitempty"`
	// KneeInterval is where a rerun's knee would land [lo, hi] (a load, as
	// Stepped), from the probes (the steps around the knee measured again
	// in interleaved rounds) and, where measurements disagree, from reruns
	// of the search simulated on the pass curve they fit. Nil when the
	// probes were not measured.
	KneeInterval []float64 `json:"knee_interval,omitempty"`
	// IntervalWhy says what set the interval and why it is wider than the
	// rounds' knees where it is (a probe's measurements disagreed).
	IntervalWhy []string `json:"interval_why,omitempty"`
	// Probes are the interval's probe loads with what each measurement
	// of them gave, in the order of the rounds.
	Probes []SweepProbe `json:"probes,omitempty"`
	// Drift is how far the host moved the pass curve between the search
	// and the rounds (nil: not measured, or no pass curve to place).
	Drift *SweepDrift `json:"drift,omitempty"`
	// SafeRate is the highest load, at or under the knee, at which every
	// measurement met the SLO (a load, as Stepped: cycles/s or workers):
	// the load a plan can promise. 0: none did.
	SafeRate float64 `json:"safe_rate,omitempty"`
	// FloorP99US is the p99 of Op at the lowest steps (the median of
	// their medians): the host's own noise, which no load lowers.
	FloorP99US float64 `json:"floor_p99_us,omitempty"`
	// USL is the Universal Scalability Law fitted to a closed loop's
	// throughput (Stepped "workers"); nil otherwise or too few steps.
	USL *USL `json:"usl,omitempty"`
	// Plan is what a target rate needs, from the knee's measured cost.
	Plan *CapacityPlan `json:"plan,omitempty"`
	// HostBefore and HostAfter are the host's own noise probed with the
	// servers idle before the strategy's first step and after its last;
	// HostChanged says how they differ when the host changed between
	// them (the knee then belongs to neither state). Nil, empty: not
	// probed, not changed.
	HostBefore  *HostNoise `json:"host_before,omitempty"`
	HostAfter   *HostNoise `json:"host_after,omitempty"`
	HostChanged string     `json:"host_changed,omitempty"`
}

// HostNoise is how late the host woke a thread sleeping a millisecond at
// a time, with nothing else running (procstat.HostNoise): the wake-ups'
// p99 lateness, the time lost to stalls (wake-ups more than a
// millisecond late, the lateness beyond it) per second probed and how
// many stalls there were, and the memory probe's figure (the host's
// speed; 0 where it cannot run).
type HostNoise struct {
	ProbeS      float64 `json:"probe_s"`
	WakeP99US   float64 `json:"wake_p99_us"`
	StallMSPerS float64 `json:"stall_ms_per_s"`
	Stalls      int     `json:"stalls"`
	MemoryNS    float64 `json:"memory_probe_ns,omitempty"`
}

// SweepDrift is the host's drift under a sweep: the load met half the
// time by the search's measurements (SearchMid) and by the rounds'
// (RoundsMid), each fitted on its own with the slope of all of them, and
// Spread, the σ of the half-way load's logarithm from one moment to
// another that their difference shows beyond their sampling (0: none).
// The knee interval's simulated reruns move their curves by draws of it.
type SweepDrift struct {
	SearchMid float64 `json:"search_mid"`
	RoundsMid float64 `json:"rounds_mid"`
	Spread    float64 `json:"spread"`
}

// SweepProbe is one probe load of the knee interval and its measurements,
// one per round.
type SweepProbe struct {
	Load  float64   `json:"load"`
	OK    []bool    `json:"ok"`
	P99US []float64 `json:"p99_us"`
}

// USL is X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted to cycles/s at N
// workers: λ the cycles/s of one worker without contention, σ the
// contention (serial share), κ the coherency cost; PeakWorkers is
// √((1−σ)/κ), where X peaks (0 when κ is 0: no peak); R2 the fit's
// coefficient of determination.
type USL struct {
	Lambda      float64 `json:"lambda"`
	Sigma       float64 `json:"sigma"`
	Kappa       float64 `json:"kappa"`
	PeakWorkers float64 `json:"peak_workers"`
	R2          float64 `json:"r2"`
}

// CapacityPlan is what carrying TargetRate cycles/s at the SLO needs,
// from the cost per cycle measured at the knee: generator cores (client
// CPU), cores per master (server CPU, one redis-server uses at most one
// core), and workers (the rate times the cycle's time in flight).
type CapacityPlan struct {
	TargetRate          float64 `json:"target_rate"`
	ClientCPUUSPerCycle float64 `json:"client_cpu_us_per_cycle"`
	ServerCPUUSPerCycle float64 `json:"server_cpu_us_per_cycle"` // all masters together
	Masters             int     `json:"masters"`
	CycleUS             float64 `json:"cycle_us"` // mean time a cycle is in flight (workers ÷ cycles/s at the knee)
	GeneratorCores      float64 `json:"generator_cores"`
	CoresPerMaster      float64 `json:"cores_per_master"`
	Workers             float64 `json:"workers"`
	// Binds is the resource that runs out first as the rate grows:
	// "masters" (a master's one core), "generator" or "workers".
	Binds string `json:"binds"`
	// HereRate is the rate this machine's cores carry at that cost
	// (cores ÷ (client + server µs per cycle)), to set beside the knee.
	HereRate float64 `json:"here_rate,omitempty"`
	Cores    int     `json:"cores,omitempty"`
}

// SweepStep is one measured step.
type SweepStep struct {
	Workers    int     `json:"workers"`
	Rate       float64 `json:"rate,omitempty"`
	CyclesPerS float64 `json:"cycles_per_s"`
	P99US      float64 `json:"p99_us"`
	Errors     int64   `json:"errors"`
	OK         bool    `json:"ok"`
	Reason     string  `json:"reason,omitempty"`
	// Samples is how many measurements the step was judged on: its
	// CyclesPerS and P99US are their medians, Errors their sum; the
	// ranges below are their spread (with more than one).
	Samples       int     `json:"samples,omitempty"`
	P99MinUS      float64 `json:"p99_min_us,omitempty"`
	P99MaxUS      float64 `json:"p99_max_us,omitempty"`
	CyclesPerSMin float64 `json:"cycles_per_s_min,omitempty"`
	CyclesPerSMax float64 `json:"cycles_per_s_max,omitempty"`
	// ServiceP99US is the median p99 of Op's service time (from the actual
	// start) in an open loop, beside P99US from the intended start: the
	// gap between them is queueing; 0 in a closed loop (they are equal).
	ServiceP99US float64 `json:"service_p99_us,omitempty"`
	// Noise: the step failed on its p99 alone but a load half a step above it held,
	// so latency was not growing with load: the climb went on.
	Noise bool `json:"noise,omitempty"`
}

// Read reads DIR/sweep.json if there is one (nil if not).
func ReadSweeps(dir string) ([]Sweep, error) {
	b, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s []Sweep
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "sweep.json"), err)
	}
	return s, nil
}
