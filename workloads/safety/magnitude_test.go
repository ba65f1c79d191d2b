package safety

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/workloads/lab"
)

// upMasters starts 5 local Redis masters with the servers fault kind
// needs, and the lab config of Redlock on them.
func upMasters(t *testing.T, ctx context.Context, kind string) (*lab.Lab, lab.Config) {
	t.Helper()
	b, err := backendOf("redlock")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Config{}.withDefaults().cell(faultKinds[kind], b)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l, cfg
}

// serverTime is a master's own wall clock, by its TIME command.
func serverTime(t *testing.T, ctx context.Context, c *redis.Client) time.Time {
	t.Helper()
	now, err := c.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// clockOffset reads how far master m's own TIME is ahead of master 1's
// (which no clock fault moves).
func clockOffset(t *testing.T, ctx context.Context, l *lab.Lab, m int) func() time.Duration {
	t.Helper()
	ref := redis.NewClient(l.Topo.Masters[0].GoRedis())
	shifted := redis.NewClient(l.Topo.Masters[m-1].GoRedis())
	t.Cleanup(func() { ref.Close(); shifted.Close() })
	return func() time.Duration { return serverTime(t, ctx, shifted).Sub(serverTime(t, ctx, ref)) }
}

// The clock-jump fault's magnitude, as the jumped master's own TIME reads
// it against an untouched master's: every jump the schedule played moved
// it by ratio × TTL, and nothing else moved it.
func TestClockJumpMagnitude(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
	defer cancel()
	l, cfg := upMasters(t, ctx, FaultClockJump)
	jumped := jumpedMaster(len(l.Topo.Masters))
	offset := clockOffset(t, ctx, l, jumped)
	tol := slow.D(5 * time.Millisecond) // two TIME round trips apart, and TIME's µs
	total := offset()
	for _, c := range []struct {
		ttl   time.Duration
		ratio float64
	}{
		{time.Second, 0.01},
		{200 * time.Millisecond, 0.5},
		{200 * time.Millisecond, 1},
	} {
		p := faultPoint{Config: Config{TTL: c.ttl, PointLimit: c.ttl}, Ratio: c.ratio, LockServers: len(l.Topo.Masters)}
		cfg.Faults = faultKinds[FaultClockJump].Plan(p)
		play, _, err := l.Play(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		play.Start(ctx)
		time.Sleep(2 * c.ttl) // jumps at ½, 1½ TTL; the rest are cut short by Stop
		jumps := 0
		for _, e := range play.Stop() {
			switch {
			case e.Err != "":
				t.Fatalf("%+v", e)
			case e.Action == "jump" && e.Master == jumped:
				jumps++
			}
		}
		want := total + time.Duration(jumps)*p.magnitude()
		got := offset()
		t.Logf("ttl %v ratio %g: %d jumps of %v, master %d's TIME ahead by %v in all", c.ttl, c.ratio, jumps, p.magnitude(), jumped, got)
		if jumps == 0 || got < want-tol || got > want+tol {
			t.Errorf("ttl %v ratio %g: %d jumps of %v: master %d ahead by %v, want %v ± %v", c.ttl, c.ratio, jumps, p.magnitude(), jumped, got, want, tol)
		}
		total = got
	}
}

// The clock-drift fault's magnitude, as the drifting master's own TIME
// reads it against an untouched master's: ahead by ratio × the time it
// drifted (from its drift event to its drift-end).
func TestClockDriftMagnitude(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
	defer cancel()
	l, cfg := upMasters(t, ctx, FaultClockDrift)
	drifting := jumpedMaster(len(l.Topo.Masters))
	offset := clockOffset(t, ctx, l, drifting)
	const ratio = 0.1
	p := faultPoint{Config: Config{TTL: time.Second}, Ratio: ratio, LockServers: len(l.Topo.Masters)}
	cfg.Faults = faultKinds[FaultClockDrift].Plan(p)
	play, _, err := l.Play(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	play.Start(ctx)
	time.Sleep(time.Second)
	var from, to float64
	for _, e := range play.Stop() {
		switch {
		case e.Err != "":
			t.Fatalf("%+v", e)
		case e.Action == "drift" && e.Master == drifting:
			from = e.AtMS
		case e.Action == "drift-end" && e.Master == drifting:
			to = e.AtMS
		}
	}
	drifted := time.Duration((to - from) * float64(time.Millisecond))
	want := time.Duration(ratio * float64(drifted))
	got := offset()
	t.Logf("ratio %g: drifted %v, master %d's TIME ahead by %v", ratio, drifted, drifting, got)
	// Two TIME round trips apart, TIME's µs, and a step of the drift
	// (10 ms × ratio) either side of the events' times.
	if tol := slow.D(5 * time.Millisecond); drifted < 500*time.Millisecond || got < want-tol || got > want+tol {
		t.Errorf("drifted %v at %g: master %d ahead by %v, want %v ± %v", drifted, ratio, drifting, got, want, tol)
	}
}

// The delay fault's magnitude, as a PING's round trip through what the
// fault put in front of the masters reads it: the minority answers
// ratio × TTL late, the quorum at once.
func TestDelayMagnitude(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
	defer cancel()
	l, cfg := upMasters(t, ctx, FaultDelay)
	n := len(l.Topo.Masters)
	for _, c := range []struct {
		ttl   time.Duration
		ratio float64
	}{
		{time.Second, 0.02},
		{time.Second, 0.1},
	} {
		p := faultPoint{Config: Config{TTL: c.ttl}, Ratio: c.ratio, LockServers: n}
		cfg.Faults = faultKinds[FaultDelay].Plan(p)
		play, at, err := l.Play(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		play.Start(ctx)
		for i, m := range at.Masters {
			rtt := pingRTT(t, ctx, m.GoRedis())
			delayed := i+1 > quorum(n)
			t.Logf("ratio %g: master %d round trip %v (delayed %v)", c.ratio, i+1, rtt, delayed)
			switch {
			// The line takes its own relay time (measured as it starts)
			// off what it delays, so a round trip may come a little under
			// the delay.
			case delayed && (rtt < p.magnitude()-2*time.Millisecond || rtt > p.magnitude()+slow.D(30*time.Millisecond)):
				t.Errorf("ratio %g: master %d round trip %v, want %v and a little", c.ratio, i+1, rtt, p.magnitude())
			case !delayed && rtt >= p.magnitude():
				t.Errorf("ratio %g: master %d of the quorum round trip %v: delayed", c.ratio, i+1, rtt)
			}
		}
		if events := play.Stop(); len(events) == 0 {
			t.Errorf("ratio %g: the schedule played nothing", c.ratio)
		}
	}
}

// pingRTT is the fastest of a few PINGs on one connection (dialled
// first, so the dial is not timed).
func pingRTT(t *testing.T, ctx context.Context, o *redis.Options) time.Duration {
	t.Helper()
	o.PoolSize, o.ReadTimeout = 1, 5*time.Second
	c := redis.NewClient(o)
	defer c.Close()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		if err := c.Ping(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	return best
}
