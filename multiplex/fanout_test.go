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

func gateNodes(n int) ([]Node, []*gateNode) {
	nodes, gs := make([]Node, n), make([]*gateNode, n)
	for i := range nodes {
		gs[i] = &gateNode{}
		nodes[i] = gs[i]
	}
	return nodes, gs
}

// strategies builds every strategy that asks masters at once over nodes.
func concurrentStrategies(t *testing.T, nodes []Node) map[string]Strategy {
	t.Helper()
	out := map[string]Strategy{}
	for _, name := range []string{"fanout", "auto"} {
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

// TestFanOutBudget: a stuck master times out within its budget while the
// others answer, whichever master is stuck (master 0 is served by the
// caller itself), and the fan is reusable afterwards.
func TestFanOutBudget(t *testing.T) {
	for stuck := range 3 {
		nodes, gs := gateNodes(3)
		for name, s := range concurrentStrategies(t, nodes) {
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

// TestBroadcastAllocs: in steady state a broadcast allocates nothing in the
// strategy itself: no goroutine, no timer context, no reply slice.
func TestBroadcastAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	nodes, _ := gateNodes(5)
	for _, name := range []string{"sequential", "fanout", "auto"} {
		t.Run(name, func(t *testing.T) {
			s, err := New(name, nodes, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			out := make([]Reply, 5)
			ctx := context.Background()
			cmd := Cmd{Timeout: time.Minute}
			s.Broadcast(ctx, cmd, out) // makes the fan
			if a := testing.AllocsPerRun(200, func() { s.Broadcast(ctx, cmd, out) }); a > 0 {
				t.Fatalf("%.1f allocations per broadcast, want 0", a)
			}
		})
	}
}

// TestBudget: Done closes at the deadline, a re-armed budget starts open
// again, and a parent's error wins.
func TestBudget(t *testing.T) {
	b := newBudget()
	b.arm(context.Background(), time.Millisecond)
	<-b.Done()
	if !errors.Is(b.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v", b.Err())
	}
	b.disarm()
	b.arm(context.Background(), time.Minute)
	select {
	case <-b.Done():
		t.Fatal("a re-armed budget starts done")
	default:
	}
	if b.Err() != nil {
		t.Fatalf("re-armed: %v", b.Err())
	}
	b.disarm()
	parent, cancel := context.WithCancel(context.Background())
	cancel()
	b.arm(parent, time.Minute)
	if !errors.Is(b.Err(), context.Canceled) {
		t.Fatalf("canceled parent: %v", b.Err())
	}
	if dl, _ := b.Deadline(); time.Until(dl) <= 0 {
		t.Fatalf("deadline %v already passed", dl)
	}
	b.disarm()
}
