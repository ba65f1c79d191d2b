package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/single"
)

// The failover faults are the Redlock post's case against a master with a
// replica: replication is asynchronous, so a grant the master made in the
// moments before it crashed may never have reached the replica the
// Sentinel promotes, and the key is granted again there. Each point holds
// the master's replication back for ratio × TTL (what it writes in that
// time is lost), then SIGKILLs it: the replica it promotes is that far
// behind, as one whose replication lagged by ratio × TTL at the crash.
// The old master comes back empty failoverRestart after its kill and the Sentinel
// makes it the new master's replica. failover-wait is the same with
// WAIT 1 after each grant: a grant the replica did not acknowledge in
// time is refused, not counted.
const (
	FaultFailover     = "failover"
	FaultFailoverWait = "failover-wait"
)

func init() {
	for _, name := range []string{FaultFailover, FaultFailoverWait} {
		f := fault{
			Name: name,
			Means: "the single backend's master stops replicating to its replica, is SIGKILLed ratio × TTL later and the " +
				"Sentinel promotes the replica (0: at once)",
			Ratios:       Ratios{0, 0.1, 0.25, 0.5, 1},
			ZeroOK:       true,
			Skip:         sentinelOnly,
			Servers:      func(s *compose.Spec) { s.Sentinel.FailoverTimeout = failoverTimeout },
			FreshServers: true,
			Spread:       true,
			Failover:     func(p faultPoint) (time.Duration, time.Duration) { return killAt(p), p.magnitude() },
			Plan: func(p faultPoint) []string {
				return []string{fmt.Sprintf("kill:masters=1:at=%s:restart=delayed:delay=%s",
					specDur(killAt(p)), specDur(failoverRestart))}
			},
			// The replica promoted, the old master back as its replica and a
			// TTL of grants after: every lost grant's validity over.
			MinSpan: func(p faultPoint) time.Duration { return killAt(p) + failoverRestart + p.TTL },
			Cycle:   failoverCycle(promotion),
		}
		if name == FaultFailoverWait {
			f.Means = "the same with WAIT 1 after each grant: a grant the replica has not acknowledged is refused"
			// No grant from the kill until the old master replicates again.
			f.Cycle = failoverCycle(failoverRestart + sentinelConvertWait + promotion)
			f.Driver = func(s *backends.Spec) { backends.Update(s, func(c *single.Config) { c.WaitReplicas = 1 }) }
		}
		registerFault(f)
	}
}

// sentinelOnly: only the single backend's master has a replica to fail
// over to; Redlock's masters, etcd, ZooKeeper and PostgreSQL run here
// without one.
func sentinelOnly(b backends.Backend) string {
	if b.On == backends.Sentinel {
		return ""
	}
	return "its servers have no replica to fail over to: only the single backend's master has one, behind a Sentinel"
}

// failoverTimeout is the Sentinel's failover-timeout on the failover
// faults' servers: longer than any point, because that long after it
// starts the Sentinel repoints the replica past the replication proxy,
// where holding replication back would hold nothing.
const failoverTimeout = time.Hour

// killAt is when the master is killed, counted from the point's start:
// a TTL of grants on the healthy pair (every key granted, at its own
// phase), then the hold of replication.
func killAt(p faultPoint) time.Duration { return p.TTL + p.magnitude() }

// failoverRestart is how long the killed master stays down: past the
// Sentinel's promotion of the replica (its down-after, then the
// failover), so it comes back as the new master's replica rather than as
// an empty master the Sentinel never failed over from.
const failoverRestart = 5 * time.Second

// Estimates of the failover's times, for the plan line: the Sentinel's
// promotion after the kill (down-after, then up to a second each of its
// election's desynchronisation and its look at the replica), and how long
// after the old master is back the Sentinel makes it the new master's
// replica (four of its publish periods).
const (
	promotion           = 2 * time.Second
	sentinelConvertWait = 8 * time.Second
)

// failoverCycle: each holder keeps its lease for its validity, and the
// crash costs outage without grants, spread over a key's grants.
func failoverCycle(outage time.Duration) func(Config, backends.Backend, float64) time.Duration {
	return func(c Config, b backends.Backend, ratio float64) time.Duration {
		grants := max(1, c.Grants/max(1, c.Keys))
		return cycleOfValidity(c, b, ratio) + outage/time.Duration(grants)
	}
}

// failoverWatch plays what a failover fault adds to its schedule: it holds
// the Sentinel master's replication back hold before killAt, and from
// killAt polls the Sentinel until it names the replica master. The func
// returned ends the watch and tells what it did: its events (the hold),
// their errors, and the failover's time from the kill to the promotion
// (0: none seen).
func failoverWatch(ctx context.Context, s *compose.Sentinel, killAt, hold time.Duration) func() (events int, errs []string, failoverMS float64) {
	ctx, cancel := context.WithCancel(ctx)
	start := time.Now()
	var (
		events     int
		errs       []string
		failoverMS float64
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if hold > 0 {
			if !sleep(ctx, killAt-hold-time.Since(start)) {
				return
			}
			events++
			if err := s.BlockReplication(ctx); err != nil {
				errs = append(errs, fmt.Sprintf("hold replication at %.0f ms: %v", ms(time.Since(start)), err))
			}
		}
		if !sleep(ctx, killAt-time.Since(start)) {
			return
		}
		killed := time.Now()
		asked := killed
		for {
			if m, err := s.CurrentMaster(ctx); err == nil && m == s.Replica.Addr() {
				failoverMS = ms(time.Since(killed))
				return
			}
			// A Sentinel that gave its failover up (on a loaded host it
			// can take the replica for down as well) would try again only
			// 2 × failoverTimeout later: ask it, as an operator would.
			if time.Since(asked) >= promotionOverdue {
				asked = time.Now()
				_ = s.Failover(ctx) // INPROG while its own is under way
			}
			if !sleep(ctx, promotionPoll) {
				return
			}
		}
	}()
	return func() (int, []string, float64) {
		cancel()
		<-done
		return events, errs, failoverMS
	}
}

// promotionOverdue is how long after the kill, and after each request
// since, the Sentinel is asked to fail over when it has not promoted the
// replica: past its down-after and a promotion on a loaded host.
const promotionOverdue = 2 * promotion

// promotionPoll is how often the Sentinel is asked for its master after
// the kill: the failover's time is read to this much.
const promotionPoll = 20 * time.Millisecond
