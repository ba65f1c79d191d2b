package results

import (
	"encoding/json"
	"fmt"
	"time"
)

// The typed measures a Run carries beside its core fields. On the wire
// (lockbench/v1) they live under "extra", each under the key it has always
// had, so summaries written before they were typed load into them and
// outside tools reading "extra" see no change: Run's MarshalJSON merges
// them into "extra", its UnmarshalJSON takes them back out. Run.Extra keeps
// whatever else "extra" holds.

// Keys of the typed measures under "extra".
const (
	extraReferee      = "referee"
	extraPacing       = "pacing"
	extraFaults       = "faults"
	extraScenario     = "scenario"
	extraVsSequential = "vs_sequential"
	extraCeilingCPS   = "ceiling_cycles_per_s"
	extraOfCeiling    = "of_ceiling"
	extraCeilingCost  = "ceiling_cost"
	extraMergedFrom   = "merged_from"
	extraMergedIDs    = "merged_ids"
	extraWindow       = "window"
)

// Pacing is what an open-loop run knows about keeping its schedule over
// the measured window (workloads.Pacing is this type).
type Pacing struct {
	Rate      float64 `json:"rate"`
	RampS     float64 `json:"ramp_s"`
	Scheduled int64   `json:"scheduled"` // slots whose intended start fell in the window
	Started   int64   `json:"started"`
	// Late: began more than 1 ms after the intended start (no worker was
	// free in time); Unstarted: intended before the end, never begun.
	Late      int64   `json:"late"`
	Unstarted int64   `json:"unstarted"`
	Missed    int64   `json:"missed_starts"` // Late + Unstarted
	MaxLagUS  float64 `json:"max_lag_us"`
}

// Window is the time span a merged run was measured over: the one all its
// inputs were measuring.
type Window struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// typedExtra is the typed measures that are set, by their key.
func (r *Run) typedExtra() map[string]any {
	m := map[string]any{}
	put := func(key string, v any, set bool) {
		if set {
			m[key] = v
		}
	}
	put(extraReferee, r.Referee, r.Referee != nil)
	put(extraPacing, r.Pacing, r.Pacing != nil)
	put(extraFaults, r.Faults, r.Faults != nil)
	put(extraScenario, r.Scenario, r.Scenario != nil)
	put(extraVsSequential, r.VsSequential, r.VsSequential != nil)
	put(extraCeilingCPS, r.CeilingCyclesPerS, r.CeilingCyclesPerS != nil)
	put(extraOfCeiling, r.OfCeiling, r.OfCeiling != nil)
	put(extraCeilingCost, r.CeilingCost, r.CeilingCost != nil)
	put(extraMergedFrom, r.MergedFrom, r.MergedFrom != 0)
	put(extraMergedIDs, r.MergedIDs, len(r.MergedIDs) > 0)
	put(extraWindow, r.Window, r.Window != nil)
	return m
}

// readTyped decodes raw into the typed measure of key; false when key has
// none (it stays in Extra).
func (r *Run) readTyped(key string, raw json.RawMessage) (bool, error) {
	var dst any
	switch key {
	case extraReferee:
		r.Referee = new(RefereeReport)
		dst = r.Referee
	case extraPacing:
		r.Pacing = new(Pacing)
		dst = r.Pacing
	case extraFaults:
		r.Faults = new(FaultReport)
		dst = r.Faults
	case extraScenario:
		r.Scenario = new(ScenarioOutcome)
		dst = r.Scenario
	case extraVsSequential:
		r.VsSequential = new(float64)
		dst = r.VsSequential
	case extraCeilingCPS:
		r.CeilingCyclesPerS = new(float64)
		dst = r.CeilingCyclesPerS
	case extraOfCeiling:
		r.OfCeiling = new(float64)
		dst = r.OfCeiling
	case extraCeilingCost:
		r.CeilingCost = new(Cost)
		dst = r.CeilingCost
	case extraMergedFrom:
		dst = &r.MergedFrom
	case extraMergedIDs:
		dst = &r.MergedIDs
	case extraWindow:
		r.Window = new(Window)
		dst = r.Window
	default:
		return false, nil
	}
	return true, json.Unmarshal(raw, dst)
}

// withoutExtra is r without anything it holds under "extra", typed or not.
func (r Run) withoutExtra() Run {
	r.Referee, r.Pacing, r.Faults, r.Scenario = nil, nil, nil, nil
	r.VsSequential, r.CeilingCyclesPerS, r.OfCeiling, r.CeilingCost = nil, nil, nil, nil
	r.MergedFrom, r.MergedIDs, r.Window, r.Extra = 0, nil, nil, nil
	return r
}

// runFields is Run without its methods, for encoding/json.
type runFields Run

// MarshalJSON writes the run with its typed measures under "extra".
func (r Run) MarshalJSON() ([]byte, error) {
	extra := r.typedExtra()
	for k, v := range r.Extra {
		if _, typed := extra[k]; !typed {
			extra[k] = v
		}
	}
	return json.Marshal(struct {
		runFields
		Extra map[string]any `json:"extra,omitempty"`
	}{runFields(r), extra})
}

// UnmarshalJSON reads a run, taking its typed measures out of "extra".
func (r *Run) UnmarshalJSON(b []byte) error {
	var w struct {
		*runFields
		Extra map[string]json.RawMessage `json:"extra"`
	}
	w.runFields = (*runFields)(r)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.Extra = nil
	for k, raw := range w.Extra {
		if typed, err := r.readTyped(k, raw); typed || err != nil {
			if err != nil {
				return fmt.Errorf("extra.%s: %w", k, err)
			}
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		if r.Extra == nil {
			r.Extra = map[string]any{}
		}
		r.Extra[k] = v
	}
	return nil
}
