package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// The typed measures a Run carries beside its core fields. On the wire
// (lockbench/v1) they live under "extra", each under the key it has always
// had, so summaries written before they were typed load into them and
// outside tools reading "extra" see no change: Run's MarshalJSON merges
// them into "extra", its UnmarshalJSON takes them back out. Run.Extra keeps
// whatever else "extra" holds.

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

// typedField is one typed measure: its key under "extra" and a pointer
// to its field.
type typedField struct {
	key string
	ptr any
}

// typed lists every typed measure once; marshalling, unmarshalling and
// clearing all walk this list.
func (r *Run) typed() []typedField {
	return []typedField{
		{"referee", &r.Referee}, {"pacing", &r.Pacing}, {"faults", &r.Faults}, {"scenario", &r.Scenario},
		{"vs_sequential", &r.VsSequential}, {"ceiling_cycles_per_s", &r.CeilingCyclesPerS},
		{"of_ceiling", &r.OfCeiling}, {"ceiling_cost", &r.CeilingCost},
		{"floor_cycles_per_s", &r.FloorCyclesPerS}, {"of_floor", &r.OfFloor}, {"floor_cost", &r.FloorCost},
		{"merged_from", &r.MergedFrom}, {"merged_ids", &r.MergedIDs}, {"window", &r.Window},
	}
}

// typedExtra is the typed measures that are set (not nil, not zero, not
// an empty list), by their key.
func (r *Run) typedExtra() map[string]any {
	m := map[string]any{}
	for _, f := range r.typed() {
		v := reflect.ValueOf(f.ptr).Elem()
		if set := !v.IsZero() && (v.Kind() != reflect.Slice || v.Len() > 0); set {
			m[f.key] = v.Interface()
		}
	}
	return m
}

// readTyped decodes raw into the typed measure of key; false when key has
// none (it stays in Extra).
func (r *Run) readTyped(key string, raw json.RawMessage) (bool, error) {
	for _, f := range r.typed() {
		if f.key == key {
			return true, json.Unmarshal(raw, f.ptr)
		}
	}
	return false, nil
}

// WithoutExtra is r without anything it holds under "extra", typed or not.
func (r Run) WithoutExtra() Run {
	for _, f := range r.typed() {
		reflect.ValueOf(f.ptr).Elem().SetZero()
	}
	r.Extra = nil
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
