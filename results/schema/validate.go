package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
)

// ErrInvalidSummary marks an input that no merge or verdict can be made
// from: merge wraps Summary.Validate's error in it.
var ErrInvalidSummary = errors.New("results: invalid summary")

// Validate refuses a summary no verdict can be made of, with a FieldError
// naming the field ("schema", "runs", "runs[2].counts"): a schema this
// lockbench does not know, no runs, a run given twice (two copies would
// count as two agreeing samples), and any run Run.Validate refuses. Gate
// and merge read their inputs through it.
func (s *Summary) Validate() error {
	if s.Schema != Schema {
		return fielderr.Invalid("schema", s.Schema, "unknown schema version (this lockbench reads %s)", Schema)
	}
	if len(s.Runs) == 0 {
		return fielderr.Invalid("runs", nil, "empty: the summary has no runs to judge")
	}
	seen := map[string]int{}
	for i, r := range s.Runs {
		field := fmt.Sprintf("runs[%d]", i)
		if j, ok := seen[RunID(s, r)]; ok {
			return fielderr.Invalid(field, r.Name, "is the same run as runs[%d]: a run given twice (repeated runs are samples: give distinct runs)", j)
		}
		seen[RunID(s, r)] = i
		if err := r.Validate(); err != nil {
			if fe, ok := err.(*fielderr.Error); ok && fe.Field == "" {
				return &fielderr.Error{Field: field, Err: fe.Err}
			}
			return fielderr.Within(field, err)
		}
	}
	return nil
}

// Validate returns the first thing that makes r no result: nothing
// measured (interrupted in its warmup), a negative or non-finite number
// (a hand-edited or corrupt summary), or counts that do not add up or are
// missing while the rates say cycles were measured. Backend-specific extras
// and the validity margin (honestly negative for a grant that arrived after
// its validity ended) are not checked. The error's Field is within the run
// ("counts"), or "" for the run as a whole.
func (r Run) Validate() error {
	if r.NothingMeasured {
		return fielderr.Invalid("nothing_measured", r.NothingMeasured, "run %q measured nothing (interrupted before its window began)", r.Name)
	}
	if _, err := json.Marshal(r); err != nil {
		return &fielderr.Error{Err: fmt.Errorf("run %q: impossible value: %v", r.Name, err)} // NaN or ±Inf
	}
	var bad []string
	for p, v := range r.Fields() {
		if strings.HasPrefix(p, "extra.") || strings.HasPrefix(p, "validity_margin_us.") {
			continue
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, fmt.Sprintf("%s %v", p, v))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fielderr.Invalid(strings.Fields(bad[0])[0], nil, "run %q: impossible value %s", r.Name, bad[0])
	}
	c := r.Counts
	if sum := c.Acquired + c.Busy + c.SplitBrain + c.Timeouts + c.Errors; sum != c.Attempts {
		return fielderr.Invalid("counts", nil, "do not add up in run %q: attempts %d, but acquired + busy + split_brain + timeouts + errors = %d", r.Name, c.Attempts, sum)
	}
	if r.Throughput.CyclesPerS > 0 && c.Cycles == 0 || r.Throughput.AttemptsPerS > 0 && c.Attempts == 0 {
		return fielderr.Invalid("counts", nil, "missing or incomplete in run %q: cycles_per_s %v, attempts_per_s %v over %d cycles, %d attempts",
			r.Name, r.Throughput.CyclesPerS, r.Throughput.AttemptsPerS, c.Cycles, c.Attempts)
	}
	return nil
}

// Fields are r's numeric JSON fields as dotted paths
// ("latency_us.cycle.p99", "cost.client_cpu_us_per_cycle").
func (r Run) Fields() map[string]float64 {
	b, _ := json.Marshal(r)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	out := map[string]float64{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, e)
			}
		case float64:
			out[prefix] = x
		}
	}
	walk("", m)
	return out
}
