package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/drivers/single"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/referee"
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
type failoverScenario struct {
	name, about, expect string
	waitReplicas        int
	judge               func(o failoverOutcome) bool
}

var failoverScenarios = []failoverScenario{
	{
		name: "failover",
		about: "Single master + replica + Sentinel: A is granted a key while replication is held back, the master is " +
			"SIGKILLed, the Sentinel promotes the replica, B is granted the same key.",
		expect: "violations > 0",
		judge:  func(o failoverOutcome) bool { return o.Violations > 0 && o.AGranted && o.BGranted },
	},
	{
		name: "failover-wait",
		about: "The same with --wait-replicas 1 (WAIT 1 after the SET): A's grant that never reached the replica " +
			"does not count.",
		expect:       "0 violations",
		waitReplicas: 1,
		judge:        func(o failoverOutcome) bool { return o.Violations == 0 && !o.AGranted && o.BGranted },
	},
}

// failoverOutcome is one failover row.
type failoverOutcome struct {
	Scenario     string  `json:"scenario"`
	WaitReplicas int     `json:"wait_replicas"`
	AGranted     bool    `json:"a_granted"` // A's attempt while replication was held back
	BGranted     bool    `json:"b_granted"` // B after the failover
	Promoted     bool    `json:"promoted"`  // the Sentinel names the former replica as master
	FailoverMS   float64 `json:"failover_ms"`
	Violations   int64   `json:"violations"`
	Expected     string  `json:"expected"`
	AsExpected   bool    `json:"as_expected"`
}

func failoverNames() []string {
	out := make([]string, len(failoverScenarios))
	for i, s := range failoverScenarios {
		out[i] = s.name
	}
	return out
}

// pickFailover selects the failover scenarios name asks for.
func pickFailover(name string) []failoverScenario {
	var out []failoverScenario
	for _, s := range failoverScenarios {
		if name == "all" || name == s.name {
			out = append(out, s)
		}
	}
	return out
}

// runFailover runs list and prints their table; runs are the rows for
// --json, also when an outcome differs from the expected (exitError).
func runFailover(ctx context.Context, w, stderr io.Writer, list []failoverScenario) (runs []results.Run, _ error) {
	var outs []failoverOutcome
	for _, s := range list {
		fmt.Fprintf(stderr, "lockbench: scenario %s (master + replica + sentinel, wait-replicas %d)\n", s.name, s.waitReplicas)
		o, err := measureFailover(ctx, s.waitReplicas)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.name, upError(ctx, err))
		}
		o.Scenario, o.Expected = s.name, s.expect
		o.AsExpected = s.judge(o)
		outs = append(outs, o)
		runs = append(runs, o.run())
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\twait replicas\tA granted\tB granted\treplica promoted\tfailover\tviolations\texpected\tas expected")
	var differ []string
	for _, o := range outs {
		v := "yes"
		if !o.AsExpected {
			v, differ = "NO", append(differ, o.Scenario)
		}
		fmt.Fprintf(tw, "%s\t%d\t%t\t%t\t%t\t%.0f ms\t%d\t%s\t%s\n", o.Scenario, o.WaitReplicas, o.AGranted, o.BGranted, o.Promoted, o.FailoverMS, o.Violations, o.Expected, v)
	}
	tw.Flush()
	if len(differ) > 0 {
		return runs, exitError{exitFailure, fmt.Sprintf("measured outcome differs from the expected one: %v", differ)}
	}
	return runs, nil
}

// run is the outcome as a row of the scenario summary: the single backend
// (the Sentinel's master), two workers (A and B) on one key; attempts are
// A's one and B's granted one (A's, when not granted, timed out in WAIT).
// The outcome itself is Extra["scenario"].
func (o failoverOutcome) run() results.Run {
	var c results.Counts
	for _, granted := range []bool{o.AGranted, o.BGranted} {
		c.Attempts++
		if granted {
			c.Acquired++
			c.Cycles++
		} else {
			c.Timeouts++
		}
	}
	c.Violations = o.Violations
	return results.Run{Name: "scenario/" + o.Scenario, Backend: "single", Masters: 1, Workload: "failover",
		Keys: 1, Workers: 2, Counts: c, Extra: map[string]any{"scenario": o}}
}

func measureFailover(ctx context.Context, waitReplicas int) (failoverOutcome, error) {
	o := failoverOutcome{WaitReplicas: waitReplicas}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	topo, err := compose.StartSentinel(ctx, compose.DefaultSentinelOptions())
	if err != nil {
		return o, err
	}
	defer topo.Close()
	rl := redlock.DefaultConfig()
	rl.NodeTimeout = 200 * time.Millisecond
	l, err := single.New(single.Endpoint{MasterName: compose.SentinelMaster, Sentinels: topo.Addrs(), Password: topo.Password},
		single.Config{Redlock: rl, WaitReplicas: waitReplicas, WaitTimeout: 200 * time.Millisecond}, 4)
	if err != nil {
		return o, err
	}
	defer l.Close()
	key := fmt.Sprintf("lockbench:failover:%d", time.Now().UnixNano())

	// A healthy cycle first: with replication flowing, WAIT is satisfied.
	ls, _, err := l.Lock(ctx, key)
	if err != nil {
		return o, fmt.Errorf("lock with replication healthy: %w", err)
	}
	if err := ls.Unlock(ctx); err != nil {
		return o, fmt.Errorf("unlock with replication healthy: %w", err)
	}

	clock := results.NewClock()
	ref := referee.New(2, clock, 0)
	if err := topo.BlockReplication(); err != nil {
		return o, err
	}
	start := time.Now()
	a, _, aerr := l.Lock(ctx, key)
	if aerr == nil {
		o.AGranted = true
		ref.Granted(0, key, clock.At(start), clock.Now(), clock.At(a.ValidUntil()), a.Fence())
	} else if !errors.Is(aerr, drivers.ErrTimeout) {
		return o, fmt.Errorf("A: %w", aerr)
	}
	killed := time.Now()
	if err := topo.Master.Kill(); err != nil {
		return o, err
	}
	if err := awaitPromotion(ctx, topo); err != nil {
		return o, err
	}
	o.Promoted, o.FailoverMS = true, float64(time.Since(killed).Microseconds())/1e3
	// The old master comes back empty; the Sentinel makes it the new
	// master's replica, so WAIT 1 can be satisfied again.
	if err := topo.Master.Start(ctx); err != nil {
		return o, fmt.Errorf("restart the old master: %w", err)
	}
	b, bstart, err := lockRetryFrom(ctx, l, key)
	if err != nil {
		return o, fmt.Errorf("B after the failover: %w", err)
	}
	o.BGranted = true
	ref.Granted(1, key, clock.At(bstart), clock.Now(), clock.At(b.ValidUntil()), b.Fence())
	now := clock.Now()
	for i, ls := range []drivers.Lease{a, b} {
		if ls != nil {
			ref.Released(i, key, now)
			_ = ls.Unlock(ctx)
			ref.Unlocked(i, key, clock.Now())
		}
	}
	o.Violations = ref.Report().Violations
	return o, nil
}

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

// lockRetryFrom attempts every 10 ms until granted; start is the winning
// attempt's start.
func lockRetryFrom(ctx context.Context, l drivers.Locker, key string) (drivers.Lease, time.Time, error) {
	for {
		start := time.Now()
		lease, _, err := l.Lock(ctx, key)
		if err == nil {
			return lease, start, nil
		}
		select {
		case <-ctx.Done():
			return nil, start, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
