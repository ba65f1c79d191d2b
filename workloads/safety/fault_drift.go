package safety

import (
	"fmt"
	"strconv"
)

// FaultClockDrift runs one master's wall clock fast by ratio for the whole
// point: it gains ratio × TTL every TTL, so every copy of a lock on it
// expires ratio of its TTL early (a clock jump spread evenly over time).
const FaultClockDrift = "clock-drift"

func init() {
	registerFault(clockFault(fault{
		Name: FaultClockDrift,
		Means: "one master's wall clock runs fast by ratio (it gains ratio × TTL every TTL); the first worker of each key " +
			"reaches only a bare quorum, the drifting master among it",
		Ratios:   Ratios{0.001, 0.01, 0.1},
		MaxRatio: 1, // a clock at twice real time
		Plan: func(p faultPoint) []string {
			return []string{fmt.Sprintf("clock-drift:masters=%d:rate=%s", jumpedMaster(p.LockServers), strconv.FormatFloat(p.Ratio, 'g', -1, 64))}
		},
	}))
}
