package multiplex

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestPipelineDropsGoneCommands: acquires and extends whose callers timed
// out while they waited in a lane's queue are never sent; releases are
// (they clean up): the master sees the batch that was in flight, the
// releases, and the command still waited for, nothing else. Under
// one batch in flight (the queue swapped out whole, or taken a batch at a
// time) and under several (keyed: one key waits for its batch in flight).
func TestPipelineDropsGoneCommands(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opt    Options
		queued int
	}{
		{"one in flight, queue within a batch", Options{Batch: 64, MaxInFlight: 1}, 5},
		{"one in flight, queue of several batches", Options{Batch: 2, MaxInFlight: 1}, 7},
		{"several in flight, keyed", Options{Batch: 2, MaxInFlight: 4}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, fakes := fakeNodes(1, nil)
			gate := make(chan struct{})
			fakes[0].gate = gate
			p, err := newPipeline(nodes, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			stuck := make(chan Reply, 1)
			go func() {
				out := make([]Reply, 1)
				p.Broadcast(context.Background(), Cmd{Key: "k", Token: "stuck", Timeout: time.Minute}, out)
				stuck <- out[0]
			}()
			for len(fakes[0].batches()) == 0 { // the first batch is in flight
				time.Sleep(time.Millisecond)
			}
			var wg sync.WaitGroup
			for i := range tc.queued {
				kind := []Kind{Acquire, Extend, Release}[i%3]
				wg.Go(func() {
					out := make([]Reply, 1)
					p.Broadcast(context.Background(), Cmd{Kind: kind, Key: "k", Token: "late", Timeout: 10 * time.Millisecond}, out)
					if out[0].Status != TimedOut {
						t.Errorf("a command queued behind a stuck batch: %v, want timed out", out[0])
					}
				})
			}
			wg.Wait()
			fakes[0].mu.Lock()
			fakes[0].gate = nil
			fakes[0].mu.Unlock()
			close(gate)
			if r := <-stuck; r.Status != OK {
				t.Fatalf("the batch in flight: %v, want ok", r)
			}
			out := make([]Reply, 1)
			p.Broadcast(context.Background(), Cmd{Key: "k", Token: "live", Timeout: time.Minute}, out)
			if out[0].Status != OK {
				t.Fatalf("the command still waited for: %v, want ok", out[0])
			}
			sent := 0
			for _, n := range fakes[0].batches() {
				sent += n
			}
			releases := 0
			for i := range tc.queued {
				if i%3 == 2 {
					releases++
				}
			}
			if want := 2 + releases; sent != want {
				t.Errorf("the master was sent %d commands (batches %v), want %d: the stuck one, the live one and %d releases of %d queued",
					sent, fakes[0].batches(), want, releases, tc.queued)
			}
		})
	}
}

// TestLaneDropsBacklogArray: a queue that grew through a backlog is
// handed to a writer whole once it drains to a batch; the writer does not
// keep its array as a spare, so the backlog's memory is given back after
// it, not held for the rest of the run.
func TestLaneDropsBacklogArray(t *testing.T) {
	gate := make(chan struct{})
	fake := &fakeBatch{addr: "fake:0", gate: gate}
	l := newLane(fake, 0, Options{Batch: 256, MaxInFlight: 1})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); l.write(ctx) }()
	defer func() { cancel(); <-done }()
	c := newCall(2)        // lane 1 never answers: the call is never complete
	const backlog = 40_000 // 2.5 MiB of queue
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range backlog {
		l.enqueue(pending{cmd: Cmd{Kind: Release, Key: "k"}, c: c})
	}
	fake.mu.Lock()
	fake.gate = nil
	fake.mu.Unlock()
	close(gate)
	waitSent(t, fake, backlog)
	// Taken only after the backlog's last batch is put away.
	l.enqueue(pending{cmd: Cmd{Kind: Release, Key: "k"}, c: c})
	waitSent(t, fake, backlog+1)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 512<<10 {
		t.Errorf("after a backlog of %d commands drained, the heap is %d KiB larger: want the backlog's queue array released", backlog, grew>>10)
	}
}

// waitSent waits until fake has been sent n commands in all.
func waitSent(t *testing.T, fake *fakeBatch, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sum := 0
		for _, s := range fake.batches() {
			sum += s
		}
		if sum >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d commands sent", sum, n)
		}
		time.Sleep(time.Millisecond)
	}
}
