package multiplex

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// flightNode is a BatchNode that echoes each command's token in its reply
// (as Err, so a reply matched to the wrong caller shows), counts the
// batches it runs at once, and holds the stall batches after its first
// from until release is closed or their ctx ends.
type flightNode struct {
	addr    string
	jitter  bool          // sleep up to 200 µs per batch, so batches overlap and finish out of order
	delay   time.Duration // sleep this long per batch: a far master
	from    int
	stall   int
	release chan struct{}

	mu       sync.Mutex
	started  int
	inFlight int
	most     int
	cmds     int
	keys     map[string]int // keys in the batches in flight
	shared   string         // a key seen in two batches in flight at once
}

func newFlightNodes(n, stall int, jitter bool) ([]Node, []*flightNode) {
	nodes, fs := make([]Node, n), make([]*flightNode, n)
	release := make(chan struct{})
	for i := range nodes {
		fs[i] = &flightNode{addr: fmt.Sprintf("flight:%d", i), stall: stall, release: release, jitter: jitter}
		nodes[i] = fs[i]
	}
	return nodes, fs
}

func (f *flightNode) Addr() string { return f.addr }

func (f *flightNode) Do(ctx context.Context, c Cmd) Reply {
	out := make([]Reply, 1)
	f.DoBatch(ctx, []Cmd{c}, out)
	return out[0]
}

func (f *flightNode) DoBatch(ctx context.Context, cmds []Cmd, out []Reply) {
	f.mu.Lock()
	f.started++
	held := f.started > f.from && f.started <= f.from+f.stall
	f.inFlight++
	f.most = max(f.most, f.inFlight)
	f.cmds += len(cmds)
	if f.keys == nil {
		f.keys = map[string]int{}
	}
	mine := map[string]bool{}
	for _, c := range cmds {
		if !mine[c.Key] && f.keys[c.Key] > 0 {
			f.shared = c.Key
		}
		mine[c.Key] = true
	}
	for k := range mine {
		f.keys[k]++
	}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		for k := range mine {
			f.keys[k]--
		}
		f.mu.Unlock()
	}()
	if held {
		select {
		case <-f.release:
		case <-ctx.Done():
			for i := range out {
				out[i] = Classify(ctx.Err())
			}
			return
		}
	}
	if f.jitter {
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
	}
	time.Sleep(f.delay)
	for i, c := range cmds {
		out[i] = Reply{Status: OK, Err: errors.New(c.Token)}
	}
}

// stats reads the counters: batches started, in flight now, most at once,
// commands run.
func (f *flightNode) stats() (started, inFlight, most, cmds int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.started, f.inFlight, f.most, f.cmds
}

// waitFor polls cond (test scaffolding only) and fails the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %s", what)
		}
	}
}

// broadcastAsync runs one Broadcast of token (its key too) in its own
// goroutine; the replies are ready when done is closed.
func broadcastAsync(p *pipeline, ctx context.Context, token string, timeout time.Duration) (out []Reply, done chan struct{}) {
	return broadcastKey(p, ctx, token, token, timeout)
}

// broadcastKey is broadcastAsync with a key of its own.
func broadcastKey(p *pipeline, ctx context.Context, key, token string, timeout time.Duration) (out []Reply, done chan struct{}) {
	out, done = make([]Reply, p.N()), make(chan struct{})
	go func() {
		defer close(done)
		p.Broadcast(ctx, Cmd{Key: key, Token: token, Timeout: timeout}, out)
	}()
	return out, done
}

// waitStarted waits until every master has started n batches.
func waitStarted(t *testing.T, fs []*flightNode, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("batch %d leaves on every master", n), func() bool {
		for _, f := range fs {
			if started, _, _, _ := f.stats(); started != n {
				return false
			}
		}
		return true
	})
}

// holdAndQueue starts held callers one by one, each once the previous
// one's batch has left on every master, then queued callers at once; caller
// i's token is i.
func holdAndQueue(t *testing.T, p *pipeline, fs []*flightNode, held, queued int) (outs [][]Reply, dones []chan struct{}) {
	t.Helper()
	for i := range held + queued {
		out, done := broadcastAsync(p, context.Background(), fmt.Sprint(i), time.Minute)
		outs, dones = append(outs, out), append(dones, done)
		if i < held {
			waitStarted(t, fs, i+1)
		}
	}
	return outs, dones
}

// refusedClosed checks that every master answered failed: pipeline closed.
func refusedClosed(out []Reply) error {
	for i, r := range out {
		if r.Status != Failed || !errors.Is(r.Err, errClosed) {
			return fmt.Errorf("master %d answered %+v, want failed: pipeline closed", i, r)
		}
	}
	return nil
}

// echoed checks that every master answered ok echoing token.
func echoed(out []Reply, token string) error {
	for i, r := range out {
		if r.Status != OK || r.Err == nil || r.Err.Error() != token {
			return fmt.Errorf("master %d answered %+v, want ok echoing %q", i, r, token)
		}
	}
	return nil
}

// TestPipelineInFlightReplyOrder: with several batches per master in flight
// and finishing out of order, every caller gets its own replies.
func TestPipelineInFlightReplyOrder(t *testing.T) {
	for _, tc := range []struct {
		name        string
		maxInFlight int
		batch       int
	}{
		{"one in flight", 1, 0},
		{"two in flight", 2, 0},
		{"four in flight batch 3", 4, 3},
		{"eight in flight batch 1", 8, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const masters, callers, rounds = 3, 32, 30
			nodes, fs := newFlightNodes(masters, 0, true)
			p, err := newPipeline(nodes, Options{Batch: tc.batch, MaxInFlight: tc.maxInFlight})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			broadcastRounds(t, p, callers, rounds)
			for i, f := range fs {
				if _, _, most, cmds := f.stats(); most > tc.maxInFlight || cmds != callers*rounds {
					t.Fatalf("master %d: %d batches at once (max %d), %d commands (want %d)", i, most, tc.maxInFlight, cmds, callers*rounds)
				}
				if f.shared != "" {
					t.Fatalf("master %d: key %q in two batches in flight at once", i, f.shared)
				}
			}
		})
	}
}

// TestPipelineMaxInFlight: callers arriving one by one while every batch
// is held fill exactly MaxInFlight batches per master; the callers after
// them wait in the queue, and leave as one batch once a writer is free.
func TestPipelineMaxInFlight(t *testing.T) {
	for _, maxInFlight := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(maxInFlight, " in flight"), func(t *testing.T) {
			nodes, fs := newFlightNodes(2, maxInFlight, false)
			p, err := newPipeline(nodes, Options{MaxInFlight: maxInFlight})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			const queued = 5
			outs, dones := holdAndQueue(t, p, fs, maxInFlight, queued)
			waitFor(t, "the queued callers reach the lanes", func() bool {
				q := 0
				for _, l := range p.lanes {
					l.mu.Lock()
					q += len(l.queue)
					l.mu.Unlock()
				}
				return q == 2*queued
			})
			for i, f := range fs {
				if started, inFlight, _, _ := f.stats(); started != maxInFlight || inFlight != maxInFlight {
					t.Fatalf("master %d with every batch held: %d started, %d in flight, want %d", i, started, inFlight, maxInFlight)
				}
			}
			close(fs[0].release)
			for i, done := range dones {
				<-done
				if err := echoed(outs[i], fmt.Sprint(i)); err != nil {
					t.Fatalf("caller %d: %v", i, err)
				}
			}
			for i, f := range fs {
				if started, _, most, _ := f.stats(); most != maxInFlight || started != maxInFlight+1 {
					t.Fatalf("master %d: %d batches at once, %d batches, want %d and %d (the queued callers as one)", i, most, started, maxInFlight, maxInFlight+1)
				}
			}
		})
	}
}

// TestPipelineSlowBatch: a held batch delays its own callers only; with a
// writer free, a later caller's batch leaves and is answered while the
// held one waits, and a caller of the held batch that gives up gets its
// verdict without disturbing anyone. With one in flight the later caller
// waits for the held batch.
func TestPipelineSlowBatch(t *testing.T) {
	for _, tc := range []struct {
		name        string
		maxInFlight int
		timeout     time.Duration // the held caller's
		want        Status        // the held caller's verdict
	}{
		{"two in flight", 2, time.Minute, OK},
		{"two in flight, held caller times out", 2, 20 * time.Millisecond, TimedOut},
		{"three in flight, held caller times out", 3, 20 * time.Millisecond, TimedOut},
		{"one in flight", 1, time.Minute, OK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, fs := newFlightNodes(3, 1, false)
			p, err := newPipeline(nodes, Options{MaxInFlight: tc.maxInFlight})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			held, heldDone := broadcastAsync(p, context.Background(), "held", tc.timeout)
			waitStarted(t, fs, 1)
			later, laterDone := broadcastAsync(p, context.Background(), "later", time.Minute)
			if tc.maxInFlight > 1 {
				<-laterDone
				if err := echoed(later, "later"); err != nil {
					t.Fatalf("later caller beside a held batch: %v", err)
				}
				if tc.want == TimedOut {
					<-heldDone
					for i, r := range held {
						if r.Status != TimedOut {
							t.Fatalf("held caller, master %d: %+v, want timed out", i, r)
						}
					}
				}
			} else {
				stillWaiting(t, laterDone, "later caller answered while the only batch in flight was held")
			}
			close(fs[0].release)
			<-heldDone
			<-laterDone
			if err := echoed(later, "later"); err != nil {
				t.Fatalf("later caller: %v", err)
			}
			if tc.want == OK {
				if err := echoed(held, "held"); err != nil {
					t.Fatalf("held caller: %v", err)
				}
			}
			next, nextDone := broadcastAsync(p, context.Background(), "next", time.Minute)
			<-nextDone
			if err := echoed(next, "next"); err != nil {
				t.Fatalf("next caller after the held batch: %v", err)
			}
		})
	}
}

// TestPipelineCloseInFlight: Close with batches held in flight and callers
// queued behind them waits for the batches in flight (their callers get
// the masters' replies) and fails the queued callers; later broadcasts fail
// at once.
func TestPipelineCloseInFlight(t *testing.T) {
	for _, maxInFlight := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(maxInFlight, " in flight"), func(t *testing.T) {
			nodes, fs := newFlightNodes(2, maxInFlight, false)
			p, err := newPipeline(nodes, Options{MaxInFlight: maxInFlight})
			if err != nil {
				t.Fatal(err)
			}
			outs, dones := holdAndQueue(t, p, fs, maxInFlight, 3)
			closed := make(chan struct{})
			go func() {
				defer close(closed)
				if err := p.Close(); err != nil {
					t.Error(err)
				}
			}()
			stillWaiting(t, closed, "Close returned with batches in flight")
			close(fs[0].release)
			<-closed
			for i, f := range fs {
				if started, inFlight, _, _ := f.stats(); inFlight != 0 || started != maxInFlight {
					t.Fatalf("master %d after Close: %d batches run, %d in flight, want %d and 0", i, started, inFlight, maxInFlight)
				}
			}
			for i, done := range dones {
				<-done
				if i < maxInFlight {
					if err := echoed(outs[i], fmt.Sprint(i)); err != nil {
						t.Fatalf("caller %d, in flight at Close: %v", i, err)
					}
					continue
				}
				if err := refusedClosed(outs[i]); err != nil {
					t.Fatalf("caller %d, queued at Close: %v", i, err)
				}
			}
			out, done := broadcastAsync(p, context.Background(), "after", time.Minute)
			<-done
			if err := refusedClosed(out); err != nil {
				t.Fatalf("after Close: %v", err)
			}
		})
	}
}
