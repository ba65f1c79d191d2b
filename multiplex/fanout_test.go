package multiplex

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// gateNode answers OK at once, or, when stuck, only when its ctx ends.
type gateNode struct {
	stuck bool
	// barrier, when set, holds every call until all of its parties arrive
	// (or ctx ends): calls that are not concurrent cannot pass it.
	barrier *sync.WaitGroup
}

func (g *gateNode) Addr() string { return "gate" }
func (g *gateNode) Do(ctx context.Context, _ Cmd) Reply {
	if g.barrier != nil {
		g.barrier.Done()
		passed := make(chan struct{})
		go func() { g.barrier.Wait(); close(passed) }()
		select {
		case <-passed:
		case <-ctx.Done():
			return Classify(ctx.Err())
		}
	}
	if g.stuck {
		<-ctx.Done()
		return Classify(ctx.Err())
	}
	return Reply{Status: OK}
}

func (g *gateNode) DoBatch(ctx context.Context, cmds []Cmd, out []Reply) {
	for i, c := range cmds {
		out[i] = g.Do(ctx, c)
	}
}

func gateNodes(n int) ([]Node, []*gateNode) {
	nodes, gs := make([]Node, n), make([]*gateNode, n)
	for i := range nodes {
		gs[i] = &gateNode{}
		nodes[i] = gs[i]
	}
	return nodes, gs
}

// concurrentStrategies builds every strategy that asks masters at once
// over nodes (and others named in extra).
func concurrentStrategies(t *testing.T, nodes []Node, extra ...string) map[string]Strategy {
	t.Helper()
	out := map[string]Strategy{}
	for _, name := range append([]string{"fanout", "auto"}, extra...) {
		s, err := New(name, nodes, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		out[name] = s
	}
	return out
}

// TestFanOutAsksAllAtOnce: every master is asked at the same time; a
// master that is asked only after another answered would never pass the
// barrier and time out.
func TestFanOutAsksAllAtOnce(t *testing.T) {
	for _, n := range []int{2, 5} {
		nodes, gs := gateNodes(n)
		for name, s := range concurrentStrategies(t, nodes) {
			t.Run(fmt.Sprintf("%s/%d masters", name, n), func(t *testing.T) {
				var barrier sync.WaitGroup
				barrier.Add(n)
				for _, g := range gs {
					g.barrier = &barrier
				}
				defer func() {
					for _, g := range gs {
						g.barrier = nil
					}
				}()
				out := make([]Reply, n)
				s.Broadcast(context.Background(), Cmd{Timeout: time.Minute}, out)
				for i, r := range out {
					if r.Status != OK {
						t.Fatalf("master %d: %v, want ok", i, r.Status)
					}
				}
			})
		}
	}
}

// TestFanOutBudget: a stuck master that only watches ctx.Done times out
// within its budget while the others answer, whichever master is stuck
// (fan-out's master 0 is served by the caller itself), and the strategy is
// reusable afterwards. Sequential too: its deadline context closes Done.
func TestFanOutBudget(t *testing.T) {
	for stuck := range 3 {
		nodes, gs := gateNodes(3)
		for name, s := range concurrentStrategies(t, nodes, "sequential") {
			t.Run(fmt.Sprintf("%s/master %d stuck", name, stuck), func(t *testing.T) {
				gs[stuck].stuck = true
				out := make([]Reply, 3)
				s.Broadcast(context.Background(), Cmd{Timeout: 20 * time.Millisecond}, out)
				for i, r := range out {
					want := OK
					if i == stuck {
						want = TimedOut
					}
					if r.Status != want {
						t.Fatalf("master %d: %v, want %v", i, r.Status, want)
					}
				}
				gs[stuck].stuck = false
				s.Broadcast(context.Background(), Cmd{Timeout: time.Minute}, out)
				for i, r := range out {
					if r.Status != OK {
						t.Fatalf("next broadcast, master %d: %v, want ok", i, r.Status)
					}
				}
			})
		}
	}
}

// TestFanOutConcurrentCallers: many callers at once each get every master's
// answer, and Close ends the helpers; a Broadcast after Close fails.
func TestFanOutConcurrentCallers(t *testing.T) {
	nodes, _ := fakeNodes(5, map[string]bool{"0": true, "3": true})
	f := NewFanOut(nodes)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for c := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := fmt.Sprint(c % 5)
			out := make([]Reply, 5)
			for range 50 {
				f.Broadcast(context.Background(), Cmd{Token: tok, Timeout: time.Minute}, out)
				want := OK
				if tok == "0" || tok == "3" {
					want = Refused
				}
				for i, r := range out {
					if r.Status != want {
						errs <- fmt.Errorf("caller %d master %d: %v, want %v", c, i, r.Status, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil { // returns once every helper has exited
		t.Fatal(err)
	}
	out := make([]Reply, 5)
	f.Broadcast(context.Background(), Cmd{Timeout: time.Minute}, out)
	for i, r := range out {
		if r.Status != Failed || !errors.Is(r.Err, errFanOutClosed) {
			t.Fatalf("master %d after Close: %+v", i, r)
		}
	}
}

// TestBroadcastAllocs: a broadcast allocates nothing per master in the
// strategy beyond sequential's one deadline each: no goroutine, no timer
// context per command, no reply slice. Fan-out and auto cost the same
// whatever the number of masters (one deadline per broadcast).
func TestBroadcastAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	allocs := func(name string, n int) float64 {
		nodes, _ := gateNodes(n)
		s, err := New(name, nodes, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		out := make([]Reply, n)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cmd := Cmd{Timeout: time.Minute}
		s.Broadcast(ctx, cmd, out) // makes the fan
		return testing.AllocsPerRun(200, func() { s.Broadcast(ctx, cmd, out) })
	}
	if a := allocs("sequential", 5); a > 5 {
		t.Errorf("sequential: %.1f allocations per broadcast over 5 masters, want at most one deadline each", a)
	}
	for _, name := range []string{"fanout", "auto"} {
		if a2, a8 := allocs(name, 2), allocs(name, 8); a8 != a2 {
			t.Errorf("%s: %.1f allocations per broadcast over 8 masters, %.1f over 2: want the same", name, a8, a2)
		}
	}
}

// TestDeadlineCtx: the deadline is the earlier of its own and the
// parent's; Done closes at it with Err DeadlineExceeded; cancel ends it with
// Canceled; a canceled parent is reported and closes Done (Err is never nil
// once Done is closed).
func TestDeadlineCtx(t *testing.T) {
	ctx := withDeadline(context.Background(), time.Minute)
	if ctx.Err() != nil {
		t.Fatalf("fresh: %v", ctx.Err())
	}
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) < 30*time.Second {
		t.Fatalf("deadline %v %v", dl, ok)
	}
	ctx.cancel()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("after cancel: %v", ctx.Err())
	}
	short := withDeadline(context.Background(), time.Millisecond)
	<-short.Done()
	if !errors.Is(short.Err(), context.DeadlineExceeded) {
		t.Fatalf("past deadline: %v", short.Err())
	}
	short.cancel()
	if !errors.Is(short.Err(), context.DeadlineExceeded) {
		t.Fatalf("cancel after the deadline changed Err to %v", short.Err())
	}
	parent, cancel := context.WithTimeout(context.Background(), time.Second)
	if dl, _ := withDeadline(parent, time.Hour).Deadline(); time.Until(dl) > time.Second {
		t.Fatalf("deadline %v later than the parent's", dl)
	}
	child := withDeadline(parent, time.Hour)
	done := child.Done()
	cancel()
	if err := child.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled parent: %v", err)
	}
	<-done
}

// TestDeadlineCtxEnds: however a deadlineCtx ends — its own deadline,
// the parent, cancel — with or without a Done asked before, Err names the
// end (the first wins) and Done is closed, so a client that checks Err after
// Done never sees nil.
func TestDeadlineCtxEnds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		d        time.Duration
		askDone  bool                       // arm the timer first
		end      func(*deadlineCtx, func()) // how it ends; the func cancels the parent
		want     error
		thenStop bool // cancel afterwards: the first end must stay
	}{
		{"deadline, no Done asked", time.Millisecond, false, func(*deadlineCtx, func()) { time.Sleep(2 * time.Millisecond) }, context.DeadlineExceeded, true},
		{"deadline, timer armed", time.Millisecond, true, func(c *deadlineCtx, _ func()) { <-c.Done() }, context.DeadlineExceeded, true},
		{"parent canceled, no Done asked", time.Minute, false, func(_ *deadlineCtx, cancel func()) { cancel() }, context.Canceled, false},
		{"parent canceled, timer armed", time.Minute, true, func(_ *deadlineCtx, cancel func()) { cancel() }, context.Canceled, false},
		{"cancel, timer armed", time.Minute, true, func(c *deadlineCtx, _ func()) { c.cancel() }, context.Canceled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := withDeadline(parent, tc.d)
			if tc.askDone {
				c.Done()
			}
			if err := c.Err(); err != nil {
				t.Fatalf("fresh: %v", err)
			}
			tc.end(c, cancel)
			if err := c.Err(); err != tc.want {
				t.Fatalf("Err %v, want %v", err, tc.want)
			}
			select {
			case <-c.Done():
			case <-time.After(time.Second):
				t.Fatal("Done not closed after Err reported the end")
			}
			if tc.thenStop {
				c.cancel()
				if err := c.Err(); err != tc.want {
					t.Fatalf("after cancel Err %v, want the first end %v", err, tc.want)
				}
			}
		})
	}
}

// BenchmarkBroadcast: each strategy's own cost per broadcast over five
// instant masters, from 16×GOMAXPROCS goroutines (allocs/op is what
// matters: no goroutine or timer context per command).
func BenchmarkBroadcast(b *testing.B) {
	for _, name := range []string{"sequential", "fanout", "auto", "pipeline"} {
		b.Run(name, func(b *testing.B) {
			nodes, _ := gateNodes(5)
			s, err := New(name, nodes, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			b.SetParallelism(16)
			b.RunParallel(func(pb *testing.PB) {
				out := make([]Reply, 5)
				for pb.Next() {
					s.Broadcast(context.Background(), Cmd{Token: "t", Timeout: time.Second}, out)
				}
			})
		})
	}
}
