package faults

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestLatencyOnDelayLine: a latency fault delays the replies of the
// masters it names, on top of their distance, and healing restores the
// distance.
func TestLatencyOnDelayLine(t *testing.T) {
	testenv.Servers(t)
	r := startMasters(t, 2)
	base := []delayline.Distance{{RTT: 2 * time.Millisecond}, {RTT: 2 * time.Millisecond}}
	pairs := make([]delayline.Pair, 2)
	for i, a := range r.Addrs() {
		pairs[i] = delayline.Pair{Listen: "127.0.0.1:0", Target: a, Distance: base[i]}
	}
	line, err := delayline.Start(pairs, delayline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer line.Close()
	addrs := make([]redisconn.Endpoint, 2)
	for i, a := range line.Addrs() {
		addrs[i] = r.Servers[i].Endpoint().Via(a)
	}
	ping := func(m int) time.Duration {
		t.Helper()
		start := time.Now()
		if err := compose.Ping(context.Background(), addrs[m]); err != nil {
			t.Fatalf("master %d: %v", m+1, err)
		}
		return time.Since(start)
	}
	if d := ping(0); d < 2*time.Millisecond {
		t.Errorf("PING through a 2ms distance took %v", d)
	}
	const added = 300 * time.Millisecond
	s := Start(context.Background(), mustParse(t, "latency:masters=1:ms=300:jitter=10"), Target{Line: line, Distances: base, TTL: time.Second})
	waitEvents(t, s, 1)
	if d := ping(0); d < added {
		t.Errorf("master 1 under latency:ms=300 answered PING in %v", d)
	}
	if d := ping(1); d >= added {
		t.Errorf("master 2, without the fault, answered PING in %v", d)
	}
	evs := s.Stop()
	noErrors(t, evs)
	if len(evs) != 2 || evs[1].Action != "heal" {
		t.Fatalf("events %+v: want inject, heal", evs)
	}
	if d := ping(0); d >= added {
		t.Errorf("healed master 1 answered PING in %v", d)
	}
	s = Start(context.Background(), mustParse(t, "latency:masters=1:ms=1"), Target{TTL: time.Second})
	waitEvents(t, s, 1)
	if evs := s.Stop(); evs[0].Err == "" {
		t.Error("latency without a delay line: want an error event")
	}
}
