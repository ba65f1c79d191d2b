package schema

// A safety sweep's result (lockbench safety --json), as the report reads
// it: the points' rates per fault magnitude. The sweep itself (faults,
// workload, the rate's interval) is workloads/safety, which writes more
// of each point than is read here.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// SafetySweep is a safety sweep's points with the config and plan line
// that measured them.
type SafetySweep struct {
	Config      json.RawMessage `json:"config"`
	Plan        string          `json:"plan,omitempty"`
	Started     time.Time       `json:"started"`
	Points      []SafetyPoint   `json:"points"`
	Interrupted bool            `json:"interrupted,omitempty"`
}

// SafetyPoint is one (backend, fault magnitude, fencing) point: its
// violations among its grants, per 10⁶ grants with the 95 % interval
// (for none, [0, 3/grants]).
type SafetyPoint struct {
	Backend      string  `json:"backend"`
	Fault        string  `json:"fault"`
	Ratio        float64 `json:"ratio"`
	Fencing      string  `json:"fencing"` // on or off
	Grants       int64   `json:"grants"`
	Violations   int64   `json:"violations"`
	PerMillion   float64 `json:"per_million"`
	PerMillionLo float64 `json:"per_million_lo"`
	PerMillionHi float64 `json:"per_million_hi"`
}

// ErrNotResult is a JSON file that is neither a summary nor a safety
// sweep.
var ErrNotResult = errors.New("schema: neither a lockbench summary (run, compare or scenario --json) nor a safety sweep (safety --json)")

// ReadResult loads a JSON file lockbench wrote: a summary (its schema
// "lockbench/…") or a safety sweep (a config and points); exactly one of
// the two is non-nil. A file of neither shape is ErrNotResult; errors do
// not repeat path.
func ReadResult(path string) (*Summary, *SafetySweep, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		if errors.As(err, new(*json.UnmarshalTypeError)) {
			return nil, nil, ErrNotResult // JSON, but not an object
		}
		return nil, nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, ok := keys["schema"]; ok {
		s, err := parseSummary(b)
		return s, nil, err
	}
	if !isObject(keys["config"]) || keys["points"] == nil {
		return nil, nil, ErrNotResult
	}
	s, err := ParseSafetySweep(b)
	if err != nil {
		return nil, nil, fmt.Errorf("safety sweep: %w", err)
	}
	return nil, s, nil
}

// ParseSafetySweep reads a safety sweep's JSON (what workloads/safety
// writes); every point must name its backend and fault.
func ParseSafetySweep(b []byte) (*SafetySweep, error) {
	var s SafetySweep
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	for i, p := range s.Points {
		if p.Backend == "" || p.Fault == "" {
			return nil, fmt.Errorf("point %d names no backend or fault", i+1)
		}
	}
	return &s, nil
}

func isObject(raw json.RawMessage) bool {
	return bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
}
