package redlock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results/schema"
)

// fakeMaster answers with a scripted status after a scripted delay and
// records every command it saw. Unit tests of the algorithm only: the
// benchmarks and integration tests use real redis-server masters.
type fakeMaster struct {
	mu      sync.Mutex
	acquire multiplex.Status
	release multiplex.Status // answer to Release (OK by default)
	delay   time.Duration
	seen    []multiplex.Kind
}

func (f *fakeMaster) Addr() string { return "fake" }

func (f *fakeMaster) Do(ctx context.Context, cmd multiplex.Cmd) multiplex.Reply {
	f.mu.Lock()
	f.seen = append(f.seen, cmd.Kind)
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return multiplex.Classify(ctx.Err())
		}
	}
	if cmd.Kind == multiplex.Release {
		if f.release == multiplex.TimedOut {
			return multiplex.Reply{Status: multiplex.TimedOut, Err: context.DeadlineExceeded}
		}
		return multiplex.Reply{Status: f.release}
	}
	if cmd.Kind != multiplex.Acquire {
		return multiplex.Reply{Status: multiplex.OK}
	}
	if f.acquire == multiplex.Failed {
		return multiplex.Reply{Status: multiplex.Failed, Err: errors.New("ERR scripted")}
	}
	return multiplex.Reply{Status: f.acquire}
}

func (f *fakeMaster) releases() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, k := range f.seen {
		if k == multiplex.Release {
			n++
		}
	}
	return n
}

const (
	ok      = multiplex.OK
	refused = multiplex.Refused
	failed  = multiplex.Failed
)

func TestQuorum(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 7: 4} {
		if got := quorumOf(n); got != want {
			t.Errorf("Quorum(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestValidityAndDrift(t *testing.T) {
	c := Config{TTL: 10 * time.Second, NodeTimeout: 50 * time.Millisecond, DriftFactor: 0.01, DriftMin: 2 * time.Millisecond}
	if got, want := c.Drift(), 102*time.Millisecond; got != want {
		t.Fatalf("Drift = %v, want %v (ttl×0.01 + 2ms)", got, want)
	}
	if got, want := c.Validity(500*time.Millisecond), 10*time.Second-500*time.Millisecond-102*time.Millisecond; got != want {
		t.Fatalf("Validity = %v, want %v", got, want)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Config)
		ok   bool
	}{
		{"default", func(*Config) {}, true},
		{"zero ttl", func(c *Config) { c.TTL = 0 }, false},
		{"ttl not above node timeout", func(c *Config) { c.TTL = c.NodeTimeout }, false},
		{"zero node timeout", func(c *Config) { c.NodeTimeout = 0 }, false},
		{"drift eats ttl", func(c *Config) { c.TTL = 2 * time.Millisecond; c.NodeTimeout = time.Millisecond }, false},
	}
	for _, tc := range tests {
		c := DefaultConfig()
		tc.mod(&c)
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestLockTallyAndOutcome(t *testing.T) {
	tests := []struct {
		name    string
		masters []multiplex.Status
		wantErr error
		outcome schema.Outcome
		tally   drivers.Attempt
	}{
		{"all grant", []multiplex.Status{ok, ok, ok, ok, ok}, nil, schema.OK, drivers.Attempt{Masters: 5, Won: 5}},
		{"bare majority", []multiplex.Status{ok, ok, ok, refused, failed}, nil, schema.OK, drivers.Attempt{Masters: 5, Won: 3, HeldByOther: 1, Failed: 1}},
		{"held elsewhere", []multiplex.Status{refused, refused, refused, ok, ok}, drivers.ErrBusy, schema.Busy, drivers.Attempt{Masters: 5, Won: 2, HeldByOther: 3}},
		{"split vote", []multiplex.Status{ok, ok, refused, refused, ok + 10}, drivers.ErrNoQuorum, schema.Error, drivers.Attempt{Masters: 5, Won: 2, HeldByOther: 2, Failed: 1}},
		{"votes split cleanly", []multiplex.Status{ok, ok, refused, refused}, drivers.ErrNoQuorum, schema.SplitBrain, drivers.Attempt{Masters: 4, Won: 2, HeldByOther: 2}},
		{"majority failed", []multiplex.Status{ok, ok, failed, failed, failed}, drivers.ErrNoQuorum, schema.Error, drivers.Attempt{Masters: 5, Won: 2, Failed: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := make([]multiplex.Node, len(tc.masters))
			fakes := make([]*fakeMaster, len(tc.masters))
			for i, s := range tc.masters {
				if s > multiplex.TimedOut {
					s = failed
				}
				fakes[i] = &fakeMaster{acquire: s}
				nodes[i] = fakes[i]
			}
			l, err := New(multiplex.NewFanOut(nodes), DefaultConfig(), nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			lease, a, err := l.Lock(ctx, "k")
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			a.Elapsed, a.Validity = 0, 0
			if a != tc.tally {
				t.Fatalf("tally = %+v, want %+v", a, tc.tally)
			}
			if got := drivers.Classify(ctx, a, err); got != tc.outcome {
				t.Fatalf("outcome = %v, want %v", got, tc.outcome)
			}
			for i, f := range fakes {
				want := 0
				if err != nil {
					want = 1 // rollback reaches every master, refusers and failures included
				}
				if got := f.releases(); got != want {
					t.Fatalf("master %d saw %d releases, want %d", i, got, want)
				}
			}
			if lease != nil {
				if err := lease.Unlock(ctx); err != nil {
					t.Fatalf("Unlock: %v", err)
				}
			}
		})
	}
}

// A quorum that took longer than the TTL leaves no validity: not acquired,
// and rolled back everywhere.
func TestLockValidityExpired(t *testing.T) {
	nodes := []multiplex.Node{&fakeMaster{acquire: ok, delay: 30 * time.Millisecond}, &fakeMaster{acquire: ok, delay: 30 * time.Millisecond}, &fakeMaster{acquire: ok}}
	cfg := Config{TTL: 50 * time.Millisecond, NodeTimeout: 40 * time.Millisecond, DriftFactor: 0.01, DriftMin: 2 * time.Millisecond}
	l, err := New(multiplex.NewSequential(nodes), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, a, err := l.Lock(context.Background(), "k")
	if !errors.Is(err, drivers.ErrExpired) {
		t.Fatalf("err = %v (tally %+v), want ErrExpired", err, a)
	}
	if a.Validity > 0 {
		t.Fatalf("validity %v should be spent", a.Validity)
	}
	for i, n := range nodes {
		if got := n.(*fakeMaster).releases(); got != 1 {
			t.Fatalf("master %d: %d releases, want 1", i, got)
		}
	}
}

// A master slower than the node timeout counts as timed out; the attempt
// still wins on the others.
func TestLockNodeTimeout(t *testing.T) {
	nodes := []multiplex.Node{&fakeMaster{acquire: ok}, &fakeMaster{acquire: ok}, &fakeMaster{acquire: ok, delay: time.Second}}
	cfg := DefaultConfig()
	cfg.NodeTimeout = 20 * time.Millisecond
	for _, mux := range []multiplex.Strategy{multiplex.NewSequential(nodes), multiplex.NewFanOut(nodes)} {
		l, _ := New(mux, cfg, nil)
		start := time.Now()
		_, a, err := l.Lock(context.Background(), "k")
		if err != nil {
			t.Fatalf("%T: %v", mux, err)
		}
		if a.TimedOut != 1 || a.Won != 2 {
			t.Fatalf("%T: tally %+v, want 2 won 1 timed out", mux, a)
		}
		if time.Since(start) > 500*time.Millisecond {
			t.Fatalf("%T: the slow master was waited for past its timeout", mux)
		}
	}
}

func TestTokenUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		tok, err := newToken()
		if err != nil {
			t.Fatal(err)
		}
		if len(tok) != 27 || seen[tok] {
			t.Fatalf("token %q: wrong length or repeated", tok)
		}
		seen[tok] = true
	}
}

// Unlock judges by the masters that granted the lease: refusals from masters
// that never granted it say nothing.
func TestUnlockJudgesGrantingMasters(t *testing.T) {
	timedOut := multiplex.TimedOut
	tests := []struct {
		name     string
		acquire  []multiplex.Status
		release  []multiplex.Status
		notHeld  bool
		wantFail bool
	}{
		{"all released", []multiplex.Status{ok, ok, ok, refused, refused}, []multiplex.Status{ok, ok, ok, refused, refused}, false, false},
		{"a granting master timed out", []multiplex.Status{ok, ok, ok, refused, refused}, []multiplex.Status{ok, ok, timedOut, refused, refused}, false, true},
		{"granting masters lost the key", []multiplex.Status{ok, ok, ok, refused, refused}, []multiplex.Status{ok, refused, refused, refused, refused}, true, true},
		{"one of five grants lost", []multiplex.Status{ok, ok, ok, ok, ok}, []multiplex.Status{ok, ok, ok, ok, refused}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := make([]multiplex.Node, len(tc.acquire))
			for i := range nodes {
				nodes[i] = &fakeMaster{acquire: tc.acquire[i], release: tc.release[i]}
			}
			l, _ := New(multiplex.NewSequential(nodes), DefaultConfig(), nil)
			lease, _, err := l.Lock(context.Background(), "k")
			if err != nil {
				t.Fatal(err)
			}
			err = lease.Unlock(context.Background())
			if (err != nil) != tc.wantFail || errors.Is(err, drivers.ErrNotHeld) != tc.notHeld {
				t.Fatalf("Unlock = %v, want failure %v, ErrNotHeld %v", err, tc.wantFail, tc.notHeld)
			}
		})
	}
}

// TestShutdownReleaseNotLogged: a release that times out after the run
// ended (drivers.ShuttingDown, as the workload frees its keys) is not an
// error of the run; the same release during the run is.
func TestShutdownReleaseNotLogged(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		want     int64
	}{{"during the run", false, 1}, {"after the run", true, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []multiplex.Node{&fakeMaster{}, &fakeMaster{}, &fakeMaster{release: multiplex.TimedOut}}
			l, _ := New(multiplex.NewSequential(nodes), DefaultConfig(), nil)
			lease, _, err := l.Lock(context.Background(), "k")
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.shutdown {
				ctx = drivers.ShuttingDown(ctx)
			}
			_ = lease.Unlock(ctx)
			var got int64
			for _, m := range l.Errors() {
				got += m.Errors
			}
			if got != tc.want {
				t.Fatalf("errors logged = %d, want %d (%+v)", got, tc.want, l.Errors())
			}
		})
	}
}
