package multiplex

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeBatch is a BatchNode that answers OK for tokens it does not refuse,
// records every batch's size, and can be made slow (gate) for one batch.
type fakeBatch struct {
	addr   string
	mu     sync.Mutex
	sizes  []int
	refuse map[string]bool
	gate   chan struct{} // when set, DoBatch blocks until it is closed or ctx ends
}

func (f *fakeBatch) Addr() string { return f.addr }

func (f *fakeBatch) Do(ctx context.Context, c Cmd) Reply {
	out := make([]Reply, 1)
	f.DoBatch(ctx, []Cmd{c}, out)
	return out[0]
}

func (f *fakeBatch) DoBatch(ctx context.Context, cmds []Cmd, out []Reply) {
	f.mu.Lock()
	f.sizes = append(f.sizes, len(cmds))
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			for i := range out {
				out[i] = Classify(ctx.Err())
			}
			return
		}
	}
	for i, c := range cmds {
		if f.refuse[c.Token] {
			out[i] = Reply{Status: Refused}
		} else {
			out[i] = Reply{Status: OK}
		}
	}
}

func (f *fakeBatch) batches() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.sizes...)
}

func fakeNodes(n int, refuse map[string]bool) ([]Node, []*fakeBatch) {
	nodes, fakes := make([]Node, n), make([]*fakeBatch, n)
	for i := range nodes {
		fakes[i] = &fakeBatch{addr: fmt.Sprintf("fake:%d", i), refuse: refuse}
		nodes[i] = fakes[i]
	}
	return nodes, fakes
}

// TestPipelineMatchesReplies: many concurrent callers, some of whose tokens
// the masters refuse, each get their own answers from every master.
func TestPipelineMatchesReplies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		masters int
		callers int
		opt     Options
	}{
		{"one master", 1, 50, Options{}},
		{"five masters batch 4", 5, 64, Options{Batch: 4}},
		{"three masters flush delay", 3, 32, Options{Batch: 8, FlushDelay: 200 * time.Microsecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refuse := map[string]bool{}
			for i := 0; i < tc.callers; i += 3 {
				refuse[fmt.Sprint(i)] = true
			}
			nodes, fakes := fakeNodes(tc.masters, refuse)
			p, err := newPipeline(nodes, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var wg sync.WaitGroup
			errs := make(chan error, tc.callers)
			for c := range tc.callers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 20 {
						out := make([]Reply, tc.masters)
						p.Broadcast(context.Background(), Cmd{Token: fmt.Sprint(c), Timeout: 10 * time.Second}, out)
						want := OK
						if refuse[fmt.Sprint(c)] {
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
			limit := tc.opt.Batch
			if limit == 0 {
				limit = DefaultBatch
			}
			total := 0
			for _, s := range fakes[0].batches() {
				if s > limit {
					t.Fatalf("a batch of %d commands exceeds --batch %d", s, limit)
				}
				total += s
			}
			if total != tc.callers*20 {
				t.Fatalf("master 0 ran %d commands, want %d", total, tc.callers*20)
			}
		})
	}
}

// TestPipelineCallerGivesUp: a caller whose timeout or ctx ends while its
// batch is stuck gets TimedOut or Failed; the stuck batch, once released,
// does not disturb the next caller's replies.
func TestPipelineCallerGivesUp(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		timeout time.Duration
		cancel  func()
		want    Status
	}{
		{"timeout", context.Background(), 30 * time.Millisecond, func() {}, TimedOut},
		{"canceled", canceled, time.Minute, cancel, Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, fakes := fakeNodes(2, nil)
			gate := make(chan struct{})
			fakes[1].gate = gate
			p, err := newPipeline(nodes, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			out := make([]Reply, 2)
			done := make(chan struct{})
			go func() {
				p.Broadcast(tc.ctx, Cmd{Token: "a", Timeout: tc.timeout}, out)
				close(done)
			}()
			time.AfterFunc(5*time.Millisecond, tc.cancel)
			<-done
			// Master 0 is instant but, on a loaded machine, may still lose
			// the race against the give-up; master 1 cannot have answered.
			if (out[0].Status != OK && out[0].Status != tc.want) || out[1].Status != tc.want {
				t.Fatalf("replies %v, want [ok %v]", out, tc.want)
			}
			fakes[1].mu.Lock()
			fakes[1].gate = nil
			fakes[1].mu.Unlock()
			close(gate)
			p.Broadcast(context.Background(), Cmd{Token: "b", Timeout: time.Minute}, out)
			if out[0].Status != OK || out[1].Status != OK {
				t.Fatalf("next caller after a stuck batch: %v, want [ok ok]", out)
			}
		})
	}
}

// TestPipelineClose: a Broadcast after Close fails at once instead of hanging.
func TestPipelineClose(t *testing.T) {
	nodes, _ := fakeNodes(3, nil)
	p, err := newPipeline(nodes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	out := make([]Reply, 3)
	p.Broadcast(context.Background(), Cmd{Token: "x"}, out)
	for i, r := range out {
		if r.Status != Failed || !errors.Is(r.Err, errClosed) {
			t.Fatalf("master %d after Close: %+v, want failed: pipeline closed", i, r)
		}
	}
}

// plainNode is a Node without DoBatch.
type plainNode struct{}

func (plainNode) Addr() string                  { return "plain" }
func (plainNode) Do(context.Context, Cmd) Reply { return Reply{} }

func TestNewPipelineRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []Node
		opt   Options
	}{
		{"node without DoBatch", []Node{plainNode{}}, Options{}},
		{"negative batch", []Node{&fakeBatch{}}, Options{Batch: -1}},
		{"negative delay", []Node{&fakeBatch{}}, Options{FlushDelay: -time.Millisecond}},
		{"more masters than a call's mask", func() []Node { n, _ := fakeNodes(maxLanes+1, nil); return n }(), Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p, err := newPipeline(tc.nodes, tc.opt); err == nil {
				p.Close()
				t.Fatal("accepted")
			}
		})
	}
}

// TestCallWakesCallerOnce: lanes answering a call in any order wake its
// caller once, when the last one answers, and every reply is where its lane
// put it (before, each lane's answer was a send to the caller: up to N
// wake-ups per Broadcast).
func TestCallWakesCallerOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order []int
	}{
		{"one lane", []int{0}},
		{"five lanes in order", []int{0, 1, 2, 3, 4}},
		{"five lanes reversed", []int{4, 3, 2, 1, 0}},
		{"64 lanes", func() []int {
			o := make([]int, maxLanes)
			for i := range o {
				o[i] = (i * 7) % maxLanes // 7 is coprime to 64: a permutation
			}
			return o
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCall(len(tc.order))
			for k, i := range tc.order {
				c.answer(i, Reply{Status: Status(i % 4), Err: fmt.Errorf("lane %d", i)})
				want := 0
				if k == len(tc.order)-1 {
					want = 1
				}
				if got := len(c.done); got != want {
					t.Fatalf("after %d of %d answers: %d wake-ups pending, want %d", k+1, len(tc.order), got, want)
				}
			}
			for i, r := range c.replies {
				if r.Status != Status(i%4) || r.Err.Error() != fmt.Sprintf("lane %d", i) {
					t.Fatalf("reply %d: %+v", i, r)
				}
			}
		})
	}
}

// BenchmarkPipelineBroadcast: the strategy's own cost per broadcast over
// five instant masters (allocations are what matter here).
func BenchmarkPipelineBroadcast(b *testing.B) {
	nodes, _ := fakeNodes(5, nil)
	p, _ := newPipeline(nodes, Options{})
	defer p.Close()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		out := make([]Reply, 5)
		for pb.Next() {
			p.Broadcast(context.Background(), Cmd{Token: "t", Timeout: time.Second}, out)
		}
	})
}

// TestPipelineFullBatchSkipsDelay: a lane lingering for more commands
// flushes as soon as its queue fills a batch, not when the delay ends (an
// hour here: the test would not end otherwise).
func TestPipelineFullBatchSkipsDelay(t *testing.T) {
	nodes, fakes := fakeNodes(2, nil)
	p, err := newPipeline(nodes, Options{Batch: 4, FlushDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]Reply, 2)
			p.Broadcast(context.Background(), Cmd{Token: fmt.Sprint(c), Timeout: time.Hour}, out)
		}()
	}
	wg.Wait()
	if got := fakes[0].batches(); len(got) != 1 || got[0] != 4 {
		t.Fatalf("batches %v, want one of 4", got)
	}
}
