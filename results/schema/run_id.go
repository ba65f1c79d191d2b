package schema

import (
	"encoding/json"
	"fmt"
	"time"
)

// RunID is a run's identity: when its summary started (to the nanosecond:
// parallel processes start apart), on which host, and its name. Paths are
// no identity: a copied directory holds the same run. The key prefix is
// added when there is one: summaries written before start times kept
// nanoseconds have whole seconds, and parallel processes on one host then
// differ only by the --prefix each was given.
func RunID(s *Summary, r Run) string {
	id := s.Started.UTC().Format(time.RFC3339Nano) + " " + s.Host.Hostname + " " + r.Name
	if r.Repeat > 0 { // the rounds of one cell in one summary are distinct runs
		id += fmt.Sprintf(" repeat=%d", r.Repeat)
	}
	var c struct {
		Workload struct {
			Prefix string `json:"prefix"`
		} `json:"workload"`
	}
	if json.Unmarshal(s.Config, &c) == nil && c.Workload.Prefix != "" {
		id += " prefix=" + c.Workload.Prefix
	}
	return id
}
