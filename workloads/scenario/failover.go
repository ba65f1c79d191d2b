package scenario

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/drivers/single"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
)

// failover is the Redlock post's argument against a master with a replica:
// the master crashes before the write of the key reached the replica, the
// replica is promoted, and a second client is granted the same key. It is
// made deterministic, not a race: replication is held back (the replica
// replicates through a proxy that drops the stream) around A's grant, the
// master is SIGKILLed right after it, the Sentinel promotes the replica,
// and B retries until the new master grants it the key. The referee counts
// B's grant inside A's validity as a violation. failover-wait is the same
// with WAIT 1 after the SET: A's grant is not acknowledged by the replica,
// so it does not count, and B's later grant overlaps nothing.
var failoverScenarios = []Scenario{
	{
		Name: "failover",
		About: "Single master + replica + Sentinel: A is granted a key while replication is held back, the master is " +
			"SIGKILLed, the Sentinel promotes the replica, B is granted the same key.",
		Kind:   Failover,
		Expect: Expect{Words: "violations > 0", Violations: yes, FirstGranted: yes, SecondGranted: yes},
	},
	{
		Name: "failover-wait",
		About: "The same with --wait-replicas 1 (WAIT 1 after the SET): A's grant that never reached the replica " +
			"does not count.",
		Kind:         Failover,
		Expect:       Expect{Words: "0 violations", Violations: No, FirstGranted: No, SecondGranted: yes},
		WaitReplicas: 1,
	},
}

// failoverMeasure is what one failover measured.
type failoverMeasure struct {
	schema.FailoverOutcome
	Violations int64
}

// run is the failover as a row of the scenario summary, judged: the single
// backend (the Sentinel's master), two workers (A and B) on one key;
// attempts are A's one and B's granted one (A's, when not granted, timed
// out in WAIT).
func (m failoverMeasure) run(s Scenario) schema.Run {
	var c schema.Counts
	for _, granted := range []bool{m.AGranted, m.BGranted} {
		c.Attempts++
		if granted {
			c.Acquired++
			c.Cycles++
		} else {
			c.Timeouts++
		}
	}
	c.Violations = m.Violations
	f := m.FailoverOutcome
	o := schema.ScenarioOutcome{Scenario: s.Name, Violations: m.Violations, Acquired: c.Acquired, Attempts: c.Attempts,
		After: -1, RecoveryMS: -1, Failover: &f}
	s.Expect.judge(&o)
	return schema.Run{Name: "scenario/" + s.Name, Backend: "single", Masters: 1, Workload: "failover",
		Keys: 1, Workers: 2, Counts: c, Scenario: &o}
}

func measureFailover(ctx context.Context, waitReplicas int) (failoverMeasure, error) {
	m := failoverMeasure{FailoverOutcome: schema.FailoverOutcome{WaitReplicas: waitReplicas}}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	topo, err := compose.StartSentinel(ctx, compose.DefaultSentinelOptions())
	if err != nil {
		return m, err
	}
	defer topo.Close()
	rl := redlock.DefaultConfig()
	// A command's bound: 1 s, so the healthy cycle below holds on a loaded
	// machine (200 ms once timed out its unlock at load 8). WAIT gets it
	// on top of its own timeout, and A's unreplicated grant is refused by
	// WAIT, not by this.
	rl.NodeTimeout = time.Second
	l, err := single.New(redisconn.Sentinel{MasterName: compose.SentinelMaster, Sentinels: topo.Addrs(), Password: topo.Password},
		// WAIT's timeout bounds only how long A's unreplicated grant is
		// waited on before it is refused; 1 s keeps the healthy cycle below
		// from failing on a loaded machine.
		single.Config{Redlock: rl, WaitReplicas: waitReplicas, WaitTimeout: time.Second}, 4)
	if err != nil {
		return m, err
	}
	defer l.Close()
	key := fmt.Sprintf("lockbench:failover:%d", time.Now().UnixNano())

	// A healthy cycle first: with replication flowing, WAIT is satisfied.
	// It is the premise, not the measurement: tried again until
	// healthyWithin, on a key of its own (a try that timed out may have
	// set its key), since on a loaded host one try's SET and WAIT can
	// outlast the command's bound.
	hctx, hcancel := context.WithTimeout(ctx, healthyWithin)
	ls, _, err := lockRetryFrom(hctx, l, key+":healthy")
	if err != nil {
		hcancel()
		return m, fmt.Errorf("lock with replication healthy: %w", err)
	}
	err = unlockRetry(hctx, ls)
	hcancel()
	if err != nil {
		return m, fmt.Errorf("unlock with replication healthy: %w", err)
	}

	clock := record.NewClock()
	ref := referee.New(2, clock, 0)
	if err := topo.BlockReplication(ctx); err != nil {
		return m, err
	}
	start := time.Now()
	a, _, aerr := l.Lock(ctx, key)
	if aerr == nil {
		m.AGranted = true
		ref.Granted(0, key, clock.At(start), clock.Now(), clock.At(a.ValidUntil()), a.Fence())
	} else if !errors.Is(aerr, drivers.ErrTimeout) {
		return m, fmt.Errorf("A: %w", aerr)
	}
	killed := time.Now()
	if err := topo.Master.Kill(); err != nil {
		return m, err
	}
	if err := awaitPromotion(ctx, topo); err != nil {
		return m, err
	}
	m.Promoted, m.FailoverMS = true, float64(time.Since(killed).Microseconds())/1e3
	// The old master comes back empty; the Sentinel makes it the new
	// master's replica, so WAIT 1 can be satisfied again.
	if err := topo.Master.Start(ctx); err != nil {
		return m, fmt.Errorf("restart the old master: %w", err)
	}
	b, bstart, err := lockRetryFrom(ctx, l, key)
	if err != nil {
		return m, fmt.Errorf("B after the failover: %w", err)
	}
	m.BGranted = true
	ref.Granted(1, key, clock.At(bstart), clock.Now(), clock.At(b.ValidUntil()), b.Fence())
	now := clock.Now()
	for i, ls := range []drivers.Lease{a, b} {
		if ls != nil {
			ref.Released(i, key, now)
			_ = ls.Unlock(ctx)
			ref.Unlocked(i, key, clock.Now())
		}
	}
	m.Violations = ref.Report().Violations
	return m, nil
}

// healthyWithin bounds the healthy cycle's tries: replication that has
// not let one grant through WAIT by then is broken, not slow. Well inside
// the Sentinel's failover-timeout (10 s), after which it repoints the
// replica past the proxy and replication could no longer be held back.
const healthyWithin = 5 * time.Second

// awaitPromotion polls the Sentinel until it names the replica as master.
func awaitPromotion(ctx context.Context, topo *compose.Sentinel) error {
	for {
		m, err := topo.CurrentMaster(ctx)
		if err == nil && m == topo.Replica.Addr() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the Sentinel never promoted the replica (master %s, %v): %w", m, err, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
