package safety

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
)

// FaultRestart crashes a majority of the lock's masters (SIGKILL) every
// few TTLs and restarts them without persistence (empty) after
// ratio × TTL: 0 at once, 1 antirez's delayed restart.
const FaultRestart = "restart"

func init() {
	registerFault(fault{
		Name: FaultRestart,
		Means: "a majority of the lock's masters is SIGKILLed every few TTLs and restarts empty (no persistence) after " +
			"ratio × TTL (0: at once)",
		Ratios: Ratios{0, 0.5, 1},
		ZeroOK: true,
		Skip: func(b backends.Backend) string {
			switch b.On {
			case backends.Redis:
				return ""
			case backends.Etcd:
				return "etcd members fsync their log: a restarted member loses no lease, there is no restart without persistence"
			case backends.Sentinel:
				return "its master fails over to its replica when it crashes: the failover faults sweep that"
			}
			return "ZooKeeper fsyncs its log and a PostgreSQL advisory lock ends with its session: neither has a restart without persistence"
		},
		Servers: func(s *compose.Spec) { s.Redis.Persistence = "none" },
		// The last master is never crashed: a counter there survives, so
		// fencing is measured, not the counter's own loss. A lock on one
		// master loses its counter with it.
		Counter:      func(lockServers int) int { return lockServers },
		FreshServers: true,
		Plan: func(p faultPoint) []string {
			restart := "restart=immediate"
			if d := p.magnitude(); d > 0 {
				restart = "restart=delayed:delay=" + specDur(d)
			}
			masters := indexes(1, quorum(p.LockServers))
			var specs []string
			for at := p.TTL; at < p.span(); at += crashEvery(p.Config, p.Ratio) {
				specs = append(specs, fmt.Sprintf("kill:masters=%s:at=%s:%s", masters, specDur(at), restart))
			}
			return specs
		},
		Cycle: func(c Config, b backends.Backend, ratio float64) time.Duration {
			// A crash costs the restart delay and a redial without grants.
			every := crashEvery(c, ratio)
			down := time.Duration(ratio*float64(c.TTL)) + time.Second
			return time.Duration(float64(cycleOfValidity(c, b, ratio)) * float64(every) / float64(max(every-down, c.TTL)))
		},
	})
}

// crashEvery is the time between crashes: a few TTLs, and long enough for
// the delayed restart, the clients' redial (go-redis retries a failed dial
// once a second) and grants on the healed masters before the next.
func crashEvery(c Config, ratio float64) time.Duration {
	return max(4*c.TTL, time.Duration(ratio*float64(c.TTL))+c.TTL+2*time.Second)
}
