package faults

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

func startMasters(t *testing.T, n int) *compose.Redis {
	t.Helper()
	return startMastersWith(t, compose.RedisOptions{Masters: n, Persistence: "none"})
}

func startMastersWith(t *testing.T, opt compose.RedisOptions) *compose.Redis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	r, err := compose.StartRedis(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func mustParse(t *testing.T, specs ...string) []Fault {
	t.Helper()
	fs, _, err := ParseAll(specs)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// waitEvent polls until the schedule has recorded n events (no timed assert:
// the deadline only stops a broken test from hanging).
func waitEvents(t *testing.T, s *Schedule, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.Events()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d events: %+v", len(s.Events()), n, s.Events())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func noErrors(t *testing.T, evs []Event) {
	t.Helper()
	for _, e := range evs {
		if e.Err != "" {
			t.Errorf("event %+v failed", e)
		}
	}
}

func TestKillRestartsEmpty(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 2)
	ctx := context.Background()
	srv := r.Servers[0]
	if err := compose.Ping(ctx, srv.Endpoint()); err != nil {
		t.Fatal(err)
	}
	pid := srv.Pid()
	s := Start(ctx, mustParse(t, "kill:masters=1:restart=immediate", "kill:masters=2:restart=never"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 4) // kill 1, restart 1, ready 1, kill 2
	evs := s.Stop()
	noErrors(t, evs)
	if err := compose.Ping(ctx, srv.Endpoint()); err != nil {
		t.Fatalf("master 1 not back: %v", err)
	}
	if srv.Pid() == pid || srv.Pid() == 0 {
		t.Errorf("master 1 pid %d, was %d: not restarted", srv.Pid(), pid)
	}
	if r.Servers[1].Pid() != 0 {
		t.Error("master 2 restarted despite restart=never")
	}
}

func TestDelayedRestartSkippedWhenRunEnds(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 1)
	s := Start(context.Background(), mustParse(t, "kill:masters=1:restart=delayed:delay=1h"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 1)
	evs := s.Stop() // must not wait an hour
	if len(evs) != 1 || evs[0].Action != "kill" {
		t.Fatalf("events %+v: want only the kill", evs)
	}
}

func TestStopResumesOnStop(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 1)
	s := Start(context.Background(), mustParse(t, "stop:masters=1:for=1h"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 1)
	pctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	err := compose.Ping(pctx, r.Servers[0].Endpoint())
	cancel()
	if err == nil {
		t.Error("a SIGSTOPped master answered PING")
	}
	evs := s.Stop()
	noErrors(t, evs)
	if len(evs) != 2 || evs[1].Action != "resume" {
		t.Fatalf("events %+v: want stop, resume", evs)
	}
	if err := compose.Ping(context.Background(), r.Servers[0].Endpoint()); err != nil {
		t.Fatalf("master not resumed: %v", err)
	}
}

func TestPartitionThroughProxyHeals(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 2)
	p, err := compose.StartProxies(r.Addrs())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	addrs := make([]redisconn.Endpoint, 2)
	for i, a := range p.Addrs() {
		addrs[i] = r.Servers[i].Endpoint().Via(a)
	}
	if err := compose.Ping(context.Background(), addrs[0]); err != nil {
		t.Fatalf("through proxy: %v", err)
	}
	s := Start(context.Background(), mustParse(t, "partition:masters=1"), Target{Proxies: p, TTL: time.Second})
	waitEvents(t, s, 1)
	pctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	err = compose.Ping(pctx, addrs[0])
	cancel()
	if err == nil {
		t.Errorf("partitioned master answered: %v", err)
	}
	if err := compose.Ping(context.Background(), addrs[1]); err != nil {
		t.Errorf("master 2, not partitioned: %v", err)
	}
	evs := s.Stop()
	noErrors(t, evs)
	if err := compose.Ping(context.Background(), addrs[0]); err != nil {
		t.Fatalf("partition not healed: %v", err)
	}
}

func TestClockJumpAndBack(t *testing.T) {
	testenv.Servers(t)
	r := startMastersWith(t, compose.RedisOptions{Masters: 3, ClockShift: true})
	s := Start(context.Background(), mustParse(t, "clock-jump:masters=1,2:+5s:for=1h", "clock-jump:masters=3:-2s"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 3)
	for i, want := range []time.Duration{5 * time.Second, 5 * time.Second, -2 * time.Second} {
		if got := r.Servers[i].Clock().Offset(); got != want {
			t.Errorf("master %d offset %v, want %v", i+1, got, want)
		}
	}
	evs := s.Stop()
	noErrors(t, evs)
	if len(evs) != 5 {
		t.Fatalf("events %+v: want jump ×3, jump-back ×2", evs)
	}
	for i, want := range []time.Duration{0, 0, -2 * time.Second} { // for=1h healed by Stop; no for= stays
		if got := r.Servers[i].Clock().Offset(); got != want {
			t.Errorf("after Stop: master %d offset %v, want %v", i+1, got, want)
		}
	}
}

// A drifting master's wall clock, as its own TIME reads it against an
// untouched master's, gains rate × the time it drifted, and keeps it.
func TestClockDriftRate(t *testing.T) {
	testenv.Servers(t)
	r := startMastersWith(t, compose.RedisOptions{Masters: 2, ClockShift: true})
	const rate, drift = 0.1, 800 * time.Millisecond
	s := Start(context.Background(), mustParse(t, "clock-drift:masters=2:rate=+10%:for=800ms"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 2) // drift, drift-end
	evs := s.Stop()
	noErrors(t, evs)
	want := time.Duration(rate * float64(drift))
	if got := r.Servers[1].Clock().Offset(); got != want {
		t.Errorf("master 2's offset %v after drifting %v at %g, want %v", got, drift, rate, want)
	}
	ctx := context.Background()
	var clients [2]*redis.Client
	for i := range clients {
		clients[i] = redis.NewClient(r.Endpoints()[i].GoRedis())
		defer clients[i].Close()
		if err := clients[i].Ping(ctx).Err(); err != nil { // dialled before the clocks are read
			t.Fatal(err)
		}
	}
	timeOf := func(i int) time.Time {
		now, err := clients[i].Time(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		return now
	}
	// The untouched master read before and after: the drifting one's
	// reading against their midpoint.
	before, drifting, after := timeOf(0), timeOf(1), timeOf(0)
	got := drifting.Sub(before.Add(after.Sub(before) / 2))
	if tol := slow.D(5 * time.Millisecond); got < want-tol || got > want+tol {
		t.Errorf("master 2's TIME ahead of master 1's by %v, want %v ± %v", got, want, tol)
	}
	if r.Servers[0].Clock().Offset() != 0 {
		t.Errorf("master 1 moved: %v", r.Servers[0].Clock().Offset())
	}
}

func TestClockJumpNeedsClockShift(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 1)
	s := Start(context.Background(), mustParse(t, "clock-jump:masters=1:+1s"), Target{Servers: asServers(r.Servers), TTL: time.Second})
	waitEvents(t, s, 1)
	if evs := s.Stop(); evs[0].Err == "" {
		t.Errorf("jump on a master without clockshift: %+v, want an error", evs[0])
	}
}

func TestPauseClientArmsWorkers(t *testing.T) {
	var mu sync.Mutex
	armed := map[int]time.Duration{}
	stall := func(w int, d time.Duration) { mu.Lock(); armed[w] = d; mu.Unlock() }
	s := Start(context.Background(), mustParse(t, "pause-client:workers=1,3:at=10ms:for=ttl+1s"), Target{Stall: stall, TTL: 2 * time.Second})
	waitEvents(t, s, 2)
	evs := s.Stop()
	noErrors(t, evs)
	mu.Lock()
	defer mu.Unlock()
	if len(armed) != 2 || armed[0] != 3*time.Second || armed[2] != 3*time.Second {
		t.Errorf("armed %v: want workers 0 and 2 (0-based) for ttl+1s = 3s", armed)
	}
	if evs[0].Worker == 0 || evs[0].Action != "stall" {
		t.Errorf("event %+v: want a stall of a 1-based worker", evs[0])
	}
	s = Start(context.Background(), mustParse(t, "pause-client:workers=1:for=1s"), Target{TTL: time.Second})
	waitEvents(t, s, 1)
	if evs := s.Stop(); evs[0].Err == "" {
		t.Error("pause-client without a stall hook: want an error event")
	}
}
