package faults

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
)

func startMasters(t *testing.T, n int) *compose.Redis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	r, err := compose.StartRedis(context.Background(), compose.RedisOptions{Masters: n, Persistence: "none"})
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
	r := startMasters(t, 2)
	ctx := context.Background()
	srv := r.Servers[0]
	if err := compose.Ping(ctx, srv.Addr()); err != nil {
		t.Fatal(err)
	}
	pid := srv.Pid()
	s := Start(ctx, mustParse(t, "kill:masters=1:restart=immediate", "kill:masters=2:restart=never"), Target{Servers: r.Servers, TTL: time.Second})
	waitEvents(t, s, 4) // kill 1, restart 1, ready 1, kill 2
	evs := s.Stop()
	noErrors(t, evs)
	if err := compose.Ping(ctx, srv.Addr()); err != nil {
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
	r := startMasters(t, 1)
	s := Start(context.Background(), mustParse(t, "kill:masters=1:restart=delayed:delay=1h"), Target{Servers: r.Servers, TTL: time.Second})
	waitEvents(t, s, 1)
	evs := s.Stop() // must not wait an hour
	if len(evs) != 1 || evs[0].Action != "kill" {
		t.Fatalf("events %+v: want only the kill", evs)
	}
}

func TestStopResumesOnStop(t *testing.T) {
	r := startMasters(t, 1)
	s := Start(context.Background(), mustParse(t, "stop:masters=1:for=1h"), Target{Servers: r.Servers, TTL: time.Second})
	waitEvents(t, s, 1)
	pctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	err := compose.Ping(pctx, r.Servers[0].Addr())
	cancel()
	if err == nil {
		t.Error("a SIGSTOPped master answered PING")
	}
	evs := s.Stop()
	noErrors(t, evs)
	if len(evs) != 2 || evs[1].Action != "resume" {
		t.Fatalf("events %+v: want stop, resume", evs)
	}
	if err := compose.Ping(context.Background(), r.Servers[0].Addr()); err != nil {
		t.Fatalf("master not resumed: %v", err)
	}
}

func TestPartitionThroughProxyHeals(t *testing.T) {
	r := startMasters(t, 2)
	p, err := compose.StartProxies(r.Addrs())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	addrs := p.Addrs()
	if err := compose.Ping(context.Background(), addrs[0]); err != nil {
		t.Fatalf("through proxy: %v", err)
	}
	s := Start(context.Background(), mustParse(t, "partition:masters=1", "latency:masters=2:ms=1"), Target{Proxies: p, TTL: time.Second})
	waitEvents(t, s, 2)
	pctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	err = compose.Ping(pctx, addrs[0])
	cancel()
	if err == nil {
		t.Errorf("partitioned master answered: %v", err)
	}
	if err := compose.Ping(context.Background(), addrs[1]); err != nil {
		t.Errorf("latency master: %v", err)
	}
	evs := s.Stop()
	noErrors(t, evs)
	if err := compose.Ping(context.Background(), addrs[0]); err != nil {
		t.Fatalf("partition not healed: %v", err)
	}
}
