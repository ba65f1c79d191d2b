package schema

import "time"

// FaultReport is what happened in a run with faults (compose/faults, played
// by cmd/lockbench): the faults as given, what the schedule did and when,
// and the availability seen by the workers. Its types mirror
// compose/faults' JSON so results imports nothing of compose.
type FaultReport struct {
	Specs    []FaultSpec    `json:"specs"`
	Events   []FaultEvent   `json:"events"`
	Timeline []Availability `json:"timeline"`
	// Recoveries: time from each repair to the next grant (10 ms resolution).
	Recoveries []Recovery `json:"recoveries"`
	// LongestOutageMS: the longest time without any grant from the first
	// fault to the end of the load (10 ms resolution).
	LongestOutageMS float64 `json:"longest_outage_ms"`
	// Grants10ms: grants per 10 ms since the load started, up to the end
	// of the load: the availability timeline at fine grain.
	Grants10ms []int64 `json:"grants_10ms"`
	// Stalls: client pauses (pause-client) the workers performed.
	Stalls int64 `json:"stalls_performed,omitempty"`
}

// FaultSpec is one --fault spec as parsed (compose/faults.Fault); durations
// as given ("5s", "ttl+1s").
type FaultSpec struct {
	Spec    string        `json:"spec"` // as given
	Kind    string        `json:"kind"`
	Masters []int         `json:"masters,omitempty"` // 1-based
	Workers []int         `json:"workers,omitempty"` // pause-client, 1-based
	At      string        `json:"at"`                // from the start of the run's load (warmup included)
	For     string        `json:"for"`               // 0s: until the run ends
	Restart string        `json:"restart,omitempty"`
	Delay   string        `json:"delay"`        // restart=delayed
	MS      int           `json:"ms,omitempty"` // latency
	Jitter  int           `json:"jitter,omitempty"`
	Jump    time.Duration `json:"jump_ns,omitempty"` // clock-jump's step
	Rate    float64       `json:"rate,omitempty"`    // clock-drift's rate (0.01: 1 % fast)
}

// FaultEvent is one thing the fault schedule did (compose/faults.Event).
type FaultEvent struct {
	AtMS   float64 `json:"at_ms"` // since the schedule started
	Fault  string  `json:"fault"`
	Action string  `json:"action"`           // kill, restart, ready, stop, resume, inject, heal, jump, jump-back, drift, drift-end, stall
	Master int     `json:"master,omitempty"` // 1-based
	Worker int     `json:"worker,omitempty"` // 1-based, pause-client
	Err    string  `json:"error,omitempty"`
}

// Availability is one interval of a fault run: grants and attempts.
type Availability struct {
	FromS    float64 `json:"from_s"` // since the load started
	ToS      float64 `json:"to_s"`
	Acquired int64   `json:"acquired"`
	Attempts int64   `json:"attempts"`
}

// Recovery is how long after a repair the first lock was granted, at
// 10 ms resolution.
type Recovery struct {
	Fault   string  `json:"fault"`
	AtMS    float64 `json:"at_ms"`
	AfterMS float64 `json:"first_grant_after_ms"`
}

// ScenarioOutcome is what a scenario (workloads/scenario) measured,
// and whether it is the outcome the scenario expects.
type ScenarioOutcome struct {
	Scenario   string  `json:"scenario"`
	Violations int64   `json:"violations"`
	Acquired   int64   `json:"acquired"`
	Attempts   int64   `json:"attempts"`
	Before     float64 `json:"acquired_per_s_before"` // before the first fault
	During     float64 `json:"acquired_per_s_during"` // from the first fault until the last repair
	After      float64 `json:"acquired_per_s_after"`  // after the last repair; -1 when nothing was repaired
	// ZeroSeconds are the 1 s intervals in which nothing was acquired.
	ZeroSeconds int `json:"zero_seconds"`
	// RecoveryMS: from the last repair (restart, resume, heal) to the first
	// grant after it, at 10 ms resolution; -1 when nothing was repaired or
	// nothing granted after.
	RecoveryMS float64 `json:"recovery_ms"`
	// LongestOutageMS: the longest time without a grant from the first fault on.
	LongestOutageMS float64 `json:"longest_outage_ms"`
	Expected        string  `json:"expected"`
	AsExpect        bool    `json:"as_expected"`
	// Fencing is a client-pause row's stale writes; nil for other scenarios.
	Fencing *FencingOutcome `json:"fencing,omitempty"`
	// Failover is a failover row's measures; nil for other scenarios.
	Failover *FailoverOutcome `json:"failover,omitempty"`
}

// FencingOutcome is what client-pause measured on one backend: a paused
// holder's writes after its lease was gone, refused or not by a register
// that keeps the highest fencing token it saw.
type FencingOutcome struct {
	Backend       string `json:"backend"`
	Rounds        int    `json:"rounds"`
	StaleAccepted int    `json:"stale_writes_accepted"` // the violation
	StaleRejected int    `json:"stale_writes_rejected"` // caught by the fencing token
}

// FailoverOutcome is what a failover scenario measured: A's grant while
// replication was held back, the Sentinel's promotion, B's grant after it.
type FailoverOutcome struct {
	WaitReplicas int     `json:"wait_replicas"`
	AGranted     bool    `json:"a_granted"` // A's attempt while replication was held back
	BGranted     bool    `json:"b_granted"` // B after the failover
	Promoted     bool    `json:"promoted"`  // the Sentinel named the former replica as master
	FailoverMS   float64 `json:"failover_ms"`
}
