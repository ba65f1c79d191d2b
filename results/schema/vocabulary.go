// Package schema is what lockbench writes and others read: the summary
// JSON (Summary, Run and its measures: Counts, Throughput, Percentiles,
// Cost, stalls, errors per master, the typed measures under "extra"), its
// version (lockbench/v1), ReadSummary and Validate, and the vocabulary
// the recorder and the drivers share: the timed operations (Op), how an
// attempt ended (Outcome), a server's own facts (Server).
//
// It imports only results/fielderr and the atomic file writer, so
// drivers and compose use it without the recording and rendering of
// results; every other package of lockbench that reads or writes results
// imports it.
package schema

// Op is a timed operation.
type Op uint8

const (
	OpAcquire      Op = iota // one lock attempt
	OpAcquireTotal           // from the cycle's (intended) start until acquired, retries included
	OpRelease                // one unlock
	OpCycle                  // from the cycle's (intended) start until released
	OpExtend                 // one extend
	NumOps
)

var opNames = [NumOps]string{"acquire", "acquire_total", "release", "cycle", "extend"}

func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return "unknown"
}

// Ops lists every op in order.
func Ops() []Op {
	out := make([]Op, NumOps)
	for i := range out {
		out[i] = Op(i)
	}
	return out
}

// Outcome is how an operation ended: the one outcome vocabulary of
// lockbench. A driver classifies its own attempt with it (drivers.Classify),
// the referee may reclassify a failed attempt with what no client can see,
// and the recorder counts it. For OpAcquire these are the attempt classes
// every attempt lands in exactly one of; other ops use OK and Error (and
// Timeout).
type Outcome uint8

const (
	OK          Outcome = iota // acquired / released / extended
	Busy                       // a valid holder had the key
	SplitBrain                 // nobody won the round: votes split
	Timeout                    // masters too slow for a quorum, or validity used up
	Error                      // masters failed
	NumOutcomes                // the counted outcomes end here
	// Canceled: the run's context ended mid-attempt. Never counted: shutdown
	// is not failure.
	Canceled = NumOutcomes
)

var outcomeNames = [NumOutcomes + 1]string{"acquired", "busy", "split_brain", "timeout", "error", "canceled"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}
