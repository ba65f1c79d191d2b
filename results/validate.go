package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrInvalidSummary marks a summary that no merge or verdict can be made
// from (Summary.Validate).
var ErrInvalidSummary = errors.New("results: invalid summary")

// Validate refuses a summary as input to merge or gate: a schema this
// lockbench does not know (another version), no runs, a run twice in it
// (the same identity, RunID: it would count as two), a run with an
// impossible value (Run.Validate). Every error wraps ErrInvalidSummary.
func (s *Summary) Validate() error {
	if s.Schema != Schema {
		return fmt.Errorf("%w: unknown schema %q (this lockbench reads %s)", ErrInvalidSummary, s.Schema, Schema)
	}
	if len(s.Runs) == 0 {
		return fmt.Errorf("%w: no runs", ErrInvalidSummary)
	}
	seen := map[string]bool{}
	for _, r := range s.Runs {
		id := RunID(s, r)
		if seen[id] {
			return fmt.Errorf("%w: run %q is in it twice (same start, host, name and round)", ErrInvalidSummary, LogName(r))
		}
		seen[id] = true
		if err := r.Validate(); err != nil {
			return fmt.Errorf("%w: run %q: %v", ErrInvalidSummary, LogName(r), err)
		}
	}
	return nil
}

// Validate returns r's first impossible value: a negative or non-finite
// count, latency, throughput, duration or ratio, as a hand-edited or
// corrupt summary has. Measures under "extra", lists (errors_by_master,
// whose times are negative during the warmup) and the validity margin
// (honestly negative for a grant that arrived after its validity ended)
// are not checked.
func (r Run) Validate() error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("impossible value: %v", err) // NaN or ±Inf
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	delete(m, "extra")
	delete(m, "validity_margin_us")
	var bad []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case float64:
			if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
				bad = append(bad, fmt.Sprintf("%s %v", path, x))
			}
		}
	}
	walk("", m)
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("impossible value %s", bad[0])
}
