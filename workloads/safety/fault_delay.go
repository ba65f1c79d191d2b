package safety

import (
	"fmt"

	"github.com/lockbench/lockbench/drivers/backends"
)

// FaultDelay delays the replies of a minority of the lock's servers by
// ratio × TTL on the delay line (compose/delayline), for the whole point.
const FaultDelay = "delay"

func init() {
	registerFault(fault{
		Name:   FaultDelay,
		Means:  "the replies of a minority of the lock's servers (Redis masters, etcd members) are late by ratio × TTL on the delay line",
		Ratios: Ratios{0.1, 0.5, 1},
		Skip: func(b backends.Backend) string {
			switch {
			case b.On == backends.Sentinel:
				return "its lock lives on one master: there is no minority to delay"
			case b.On != backends.Redis && b.On != backends.Etcd:
				return "its lock lives on one " + b.On.String() + " server here: there is no minority to delay"
			case b.Servers == 1:
				return "its lock lives on one master: there is no minority to delay"
			}
			return ""
		},
		Plan: func(p faultPoint) []string {
			q := quorum(p.LockServers)
			return []string{fmt.Sprintf("latency:masters=%s:ms=%d", indexes(q+1, p.LockServers), p.magnitude().Milliseconds())}
		},
		Cycle: cycleOfValidity,
	})
}
