package safety

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
)

// FaultClockJump steps one master's wall clock forward by ratio × TTL once
// every TTL, so every copy of a lock on it meets one jump and expires that
// much early (Redis expires keys by the wall clock).
const FaultClockJump = "clock-jump"

func init() {
	registerFault(clockFault(fault{
		Name: FaultClockJump,
		Means: "one master's wall clock jumps forward by ratio × TTL once every TTL; the first worker of each key " +
			"reaches only a bare quorum, the jumped master among it (Kleppmann's example)",
		Ratios: Ratios{0.01, 0.1, 0.5, 1},
		Plan: func(p faultPoint) []string {
			jumped := jumpedMaster(p.LockServers)
			var specs []string
			for at := jumpEvery(p.Config) / 2; at < p.span(); at += jumpEvery(p.Config) {
				specs = append(specs, fmt.Sprintf("clock-jump:masters=%d:+%s:at=%s", jumped, specDur(p.magnitude()), specDur(at)))
			}
			return specs
		},
	}))
}

// clockFault is f, a fault of one master's wall clock (Name, Means,
// Ratios and Plan set), on the masters clockshift runs: Redis-based locks
// only, the first worker of each key cut off to a bare quorum with the
// moved master in it, three workers a key, each holder keeping its lease
// for its validity.
func clockFault(f fault) fault {
	f.Skip = redisClockOnly
	f.Servers = func(s *compose.Spec) { s.Redis.ClockShift = true }
	f.CutOff = bareQuorum
	f.WorkersPerKey = func(float64) int { return 3 }
	f.Cycle = cycleOfValidity
	return f
}

// redisClockOnly: the clock faults shift Redis masters' wall clocks
// (compose/internal/clockshift); other servers are not started under it.
func redisClockOnly(b backends.Backend) string {
	if b.On == backends.Redis {
		return ""
	}
	switch b.On {
	case backends.Etcd:
		return "etcd times its leases on the leader's monotonic clock, and clockshift shifts only Redis masters' wall clocks"
	case backends.Sentinel:
		return "clockshift runs under Redlock's masters, not under the Sentinel's master and replica"
	}
	return "clockshift shifts only Redis masters' wall clocks, not " + b.On.String() + "'s"
}

// jumpedMaster is the master whose clock moves: the last of the bare
// quorum the cut-off workers reach, or the one master a single-master
// lock lives on.
func jumpedMaster(lockServers int) int { return quorum(lockServers) }

// bareQuorum cuts the first worker of each key off from the masters past
// a quorum, so its grants stand on exactly a quorum: a jump of one of them
// lets a worker that reaches every master win a quorum of its own. A lock
// on one master needs no such help.
func bareQuorum(lockServers int) []int {
	if lockServers < 3 {
		return nil
	}
	var out []int
	for m := quorum(lockServers) + 1; m <= lockServers; m++ {
		out = append(out, m)
	}
	return out
}

// jumpEvery is how often the clock jumps: once a TTL, so every copy of a
// lock on the master meets one jump.
func jumpEvery(c Config) time.Duration { return c.TTL }
