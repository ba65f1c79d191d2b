package schema

import "strings"

// MasterErrors explains a run's errors and timeouts on one master (or, for
// a backend that does not say which server failed, the backend): its most
// frequent messages with counts, and when it stopped answering.
// Counted over the whole run, warmup included.
type MasterErrors struct {
	Master   string       `json:"master"` // address, or the backend's name
	Index    int          `json:"index"`  // 1-based, as --fault masters=... counts
	Errors   int64        `json:"errors"` // failed and timed-out commands
	Messages []ErrorCount `json:"messages"`
	Other    int64        `json:"other,omitempty"` // errors counted under no message
	// FirstS is the first error, in seconds from the start of the measured
	// window (negative: during warmup).
	FirstS float64 `json:"first_s"`
	// StoppedS, when set, is when the master stopped answering for the rest
	// of the run (seconds from the window start); StoppedFailures counts the
	// commands that failed since.
	StoppedS        *float64 `json:"stopped_s,omitempty"`
	StoppedFailures int64    `json:"stopped_failures,omitempty"`
	// NeverAnswered: not one command to this master was answered.
	NeverAnswered bool `json:"never_answered,omitempty"`
}

// ErrorCount is one error message and how often it was seen. The counts
// are a bounded heavy-hitters summary: Count is at most Overcount above the
// truth (absent: exact), and any message more frequent than an eighth of
// its master's errors is among them.
type ErrorCount struct {
	Message   string `json:"message"`
	Count     int64  `json:"count"`
	Overcount int64  `json:"overcount,omitempty"`
}

// NoAnswer and NoConnection begin the message of every command a server
// did not answer, or connect for, in time (drivers.ErrorLog counts them
// so): timeouts, not errors the server returned.
const (
	NoAnswer     = "no answer"
	NoConnection = "no connection"
)

// Timeout reports whether e counts commands a server did not answer in
// time.
func (e ErrorCount) Timeout() bool {
	return strings.HasPrefix(e.Message, NoAnswer) || strings.HasPrefix(e.Message, NoConnection)
}

// TopError is the most frequent kept error message of r ("" when none).
func (r Run) TopError() string {
	var best ErrorCount
	for _, m := range r.ErrorsByMaster {
		for _, e := range m.Messages {
			if e.Count > best.Count {
				best = e
			}
		}
	}
	return best.Message
}

// MostlyFailed: more than half of c's attempts failed (errors and
// timeouts); false when there were none.
func (c Counts) MostlyFailed() bool {
	return c.Attempts > 0 && 2*(c.Errors+c.Timeouts) > c.Attempts
}
