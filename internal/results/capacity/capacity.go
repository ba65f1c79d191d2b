// Package capacity holds the result types of a capacity sweep (lockbench
// sweep): each strategy's steps of rising load and its knee, the highest
// step that kept its p99 under the SLO, as sweep.json holds them. The sweep
// itself (stepping, judging a step) is run elsewhere; the HTML report draws
// these. It imports nothing of lockbench.
package capacity

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Sweep is one strategy's capacity sweep: its steps and the knee, the
// highest step that kept p99 of Op under the SLO without errors.
type Sweep struct {
	Name    string  `json:"name"`
	Op      string  `json:"op"`
	SLOUS   float64 `json:"slo_us"`
	Stepped string  `json:"stepped"` // "rate" or "workers"
	Steps   []Step  `json:"steps"`
	Knee    int     `json:"knee"` // index into Steps; -1: even the first step failed
	// BadLoad is the lowest load confirmed to fail (rate or workers, as
	// Stepped): the capacity lies between the knee's load and it. 0: no
	// step failed (the knee is the highest load measured).
	BadLoad float64 `json:"bad_load,omitempty"`
	// Repeat is the measurements that decide a failing step, the step
	// below it and each bisection step (on their medians).
	Repeat int `json:"repeat,omitempty"`
}

// Step is one measured step.
type Step struct {
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
}

// Read reads DIR/sweep.json if there is one (nil if not).
func Read(dir string) ([]Sweep, error) {
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
