package multiplex

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stillWaiting fails the test with msg if done closes within 20 ms.
func stillWaiting(t *testing.T, done <-chan struct{}, msg string) {
	t.Helper()
	select {
	case <-done:
		t.Fatal(msg)
	case <-time.After(20 * time.Millisecond):
	}
}

// broadcastRounds runs callers concurrent callers of rounds broadcasts
// each, caller c's on key k(c mod 5), so callers share keys and some wait
// for theirs, and fails the test unless every caller got its own replies.
func broadcastRounds(t *testing.T, p *pipeline, callers, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]Reply, p.N())
			for r := range rounds {
				token := fmt.Sprintf("%d/%d", c, r)
				p.Broadcast(context.Background(), Cmd{Key: fmt.Sprint("k", c%5), Token: token, Timeout: time.Minute}, out)
				if err := echoed(out, token); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// farClock is a lane clock on which every reading is step after the one
// before, so every batch takes at least step.
func farClock(step time.Duration) func() time.Time {
	var ns atomic.Int64
	return func() time.Time { return time.Unix(0, ns.Add(int64(step))) }
}

// stoppedClock is a lane clock on which every batch takes no time.
func stoppedClock() time.Time { return time.Unix(0, 0) }

// setClock gives every lane of p clock; call it before the first Broadcast.
func setClock(p *pipeline, clock func() time.Time) {
	for _, l := range p.lanes {
		l.clock = clock
	}
}

// limits reads every lane's limit of batches in flight.
func limits(p *pipeline) []int {
	out := make([]int, len(p.lanes))
	for i, l := range p.lanes {
		l.mu.Lock()
		out[i] = l.limit.now
		l.mu.Unlock()
	}
	return out
}

// TestPipelineAdaptiveInFlight: at its default a pipeline whose masters
// take a millisecond per batch lets several batches of a master travel at
// once, while one whose masters answer at once keeps one in flight; either
// way every caller gets its own replies and no key is in two batches in
// flight at once.
func TestPipelineAdaptiveInFlight(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delay time.Duration
		clock func() time.Time
		far   bool
	}{
		{"far masters", time.Millisecond, time.Now, true},
		{"close masters", 0, stoppedClock, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const masters, callers, rounds = 3, 16, 30
			nodes, fs := newFlightNodes(masters, 0, true)
			for _, f := range fs {
				f.delay = tc.delay
			}
			p, err := newPipeline(nodes, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			setClock(p, tc.clock)
			broadcastRounds(t, p, callers, rounds)
			wantLimit := 1
			if tc.far {
				wantLimit = DefaultMaxInFlight
			}
			for i, f := range fs {
				_, _, most, cmds := f.stats()
				if cmds != callers*rounds {
					t.Fatalf("master %d: %d commands, want %d", i, cmds, callers*rounds)
				}
				if tc.far && most < 2 || !tc.far && most != 1 || most > DefaultMaxInFlight {
					t.Fatalf("master %d: at most %d batches at once (far: %v, cap %d)", i, most, tc.far, DefaultMaxInFlight)
				}
				if f.shared != "" {
					t.Fatalf("master %d: key %q in two batches in flight at once", i, f.shared)
				}
				if got := limits(p)[i]; got != wantLimit {
					t.Fatalf("master %d: limit %d, want %d", i, got, wantLimit)
				}
			}
		})
	}
}

// TestPipelineKeyWaitsForItsBatch: with several batches in flight, a
// command whose key is in a held batch waits for that batch's answer (its
// master sees the key's commands in queue order), while a command of
// another key leaves beside the held batch; with a fixed limit and with an
// adaptive one that has found its masters far.
func TestPipelineKeyWaitsForItsBatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		warm int // batches before the held one
	}{
		{"fixed 4 in flight", Options{MaxInFlight: 4}, 0},
		{"adaptive, far masters", Options{}, floorSamples},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, fs := newFlightNodes(3, 1, false)
			for _, f := range fs {
				f.from = tc.warm
			}
			p, err := newPipeline(nodes, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			setClock(p, farClock(time.Millisecond))
			for i := range tc.warm {
				out, done := broadcastAsync(p, context.Background(), fmt.Sprint("warm", i), time.Minute)
				<-done
				if err := echoed(out, fmt.Sprint("warm", i)); err != nil {
					t.Fatal(err)
				}
			}
			for i, limit := range limits(p) {
				if limit < 2 {
					t.Fatalf("master %d: limit %d before the held batch, want several in flight", i, limit)
				}
			}
			held, heldDone := broadcastKey(p, context.Background(), "k", "held", time.Minute)
			waitStarted(t, fs, tc.warm+1)
			same, sameDone := broadcastKey(p, context.Background(), "k", "same key", time.Minute)
			other, otherDone := broadcastKey(p, context.Background(), "j", "other key", time.Minute)
			<-otherDone
			if err := echoed(other, "other key"); err != nil {
				t.Fatalf("other key beside the held batch: %v", err)
			}
			stillWaiting(t, sameDone, "a command of the held batch's key left while that batch was in flight")
			close(fs[0].release)
			<-heldDone
			<-sameDone
			for token, out := range map[string][]Reply{"held": held, "same key": same} {
				if err := echoed(out, token); err != nil {
					t.Fatalf("%s: %v", token, err)
				}
			}
			for i, f := range fs {
				if f.shared != "" {
					t.Fatalf("master %d: key %q in two batches in flight at once", i, f.shared)
				}
				if started, _, _, _ := f.stats(); started != tc.warm+3 {
					t.Fatalf("master %d: %d batches, want %d (held, other key, then same key)", i, started, tc.warm+3)
				}
			}
		})
	}
}
