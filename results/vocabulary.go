// Package results records what a run measured: HDR bucket counters in a
// fixed set of shards, drained on a tick without a lock or channel per sample, the summary JSON,
// tables, interval logs and reports. It imports nothing else of lockbench.
package results

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

// Outcome is how a recorded operation ended. For OpAcquire these are the
// attempt classes every attempt lands in exactly one of; other ops use OK
// and Error (and Timeout).
type Outcome uint8

const (
	OK         Outcome = iota // acquired / released / extended
	Busy                      // a valid holder had the key
	SplitBrain                // nobody won the round: votes split
	Timeout                   // masters too slow for a quorum, or validity used up
	Error                     // masters failed
	NumOutcomes
)

var outcomeNames = [NumOutcomes]string{"acquired", "busy", "split_brain", "timeout", "error"}

func (o Outcome) String() string {
	if o < NumOutcomes {
		return outcomeNames[o]
	}
	return "unknown"
}
