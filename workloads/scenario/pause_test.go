package scenario

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

func TestRegister(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes []uint64
		want   []bool
	}{
		{"no tokens: every write lands", []uint64{0, 0, 0}, []bool{true, true, true}},
		{"rising tokens land", []uint64{3, 7, 7, 9}, []bool{true, true, true, true}},
		{"an older token is refused", []uint64{5, 9, 5}, []bool{true, true, false}},
		{"a write without a token after tokens lands", []uint64{5, 0}, []bool{true, true}},
	} {
		var r register
		for i, f := range c.writes {
			if got := r.write(f); got != c.want[i] {
				t.Errorf("%s: write %d (fence %d) accepted %v, want %v", c.name, i, f, got, c.want[i])
			}
		}
	}
}

// fakeLocker grants a key after busy refusals, with fences from a counter
// (or 0: no fencing token), and counts unlocks.
type fakeLocker struct {
	mu       sync.Mutex
	fencing  bool
	busy     int // refusals before each grant
	refused  int
	fence    uint64
	unlocked int
}

func (f *fakeLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refused < f.busy {
		f.refused++
		return nil, drivers.Attempt{}, drivers.ErrBusy
	}
	f.refused = 0
	f.fence++
	l := &fakeLease{l: f}
	if f.fencing {
		l.fence = f.fence
	}
	return l, drivers.Attempt{}, nil
}

func (f *fakeLocker) Close() error { return nil }

type fakeLease struct {
	l     *fakeLocker
	fence uint64
}

func (l *fakeLease) Unlock(context.Context) error {
	l.l.mu.Lock()
	defer l.l.mu.Unlock()
	l.l.unlocked++
	return nil
}
func (l *fakeLease) Extend(context.Context, time.Duration) error { return nil }
func (l *fakeLease) ValidUntil() time.Time                       { return time.Now().Add(time.Second) }
func (l *fakeLease) Fence() uint64                               { return l.fence }

// TestPauseRound: without fencing tokens A's stale write lands; with them
// it is refused; B waits out refusals; a silenced A resumes before its
// write and its lock is left to its closed client.
func TestPauseRound(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		fencing  bool
		busy     int
		silence  bool
		accepted bool
		unlocked int
	}{
		{"redlock: no token, the stale write lands", false, 0, false, true, 2},
		{"etcd: the revision refuses it", true, 0, false, false, 2},
		{"B retries while busy", true, 3, false, false, 2},
		{"zookeeper: A silenced, then resumed", true, 0, true, false, 1},
	} {
		l := &fakeLocker{fencing: c.fencing, busy: c.busy}
		var events []string
		var pause func() (func(), error)
		if c.silence {
			pause = func() (func(), error) {
				events = append(events, "pause")
				return func() { events = append(events, "resume") }, nil
			}
		}
		accepted, err := pauseRound(ctx, l, l, pause, "k")
		if err != nil || accepted != c.accepted || l.unlocked != c.unlocked {
			t.Errorf("%s: accepted %v, %v, %d unlocks; want %v, %d unlocks", c.name, accepted, err, l.unlocked, c.accepted, c.unlocked)
		}
		if c.silence && strings.Join(events, ",") != "pause,resume" {
			t.Errorf("%s: events %v", c.name, events)
		}
	}
}

func TestPauseRoundFails(t *testing.T) {
	l := &fakeLocker{busy: 1 << 30}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := pauseRound(ctx, l, l, nil, "k"); !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "A: ") {
		t.Errorf("A never granted: %v", err)
	}
	refused := errors.New("proxy down")
	b := &fakeLocker{}
	if _, err := pauseRound(context.Background(), b, b, func() (func(), error) { return nil, refused }, "k"); !errors.Is(err, refused) {
		t.Errorf("pause failed: %v", err)
	}
	// B's token older than A's: the register refuses B, the round is void.
	a := &fakeLocker{fencing: true, fence: 10}
	if _, err := pauseRound(context.Background(), a, &fakeLocker{fencing: true}, nil, "k"); err == nil || !strings.Contains(err.Error(), "B's write refused") {
		t.Errorf("B's token older than A's: %v", err)
	}
}

// TestClientPauseRows: the rounds counted and each backend's row judged
// by its own expectation.
func TestClientPauseRows(t *testing.T) {
	s, _ := Lookup("client-pause")
	expect := map[string]pauseBackend{}
	for _, b := range s.Backends {
		expect[b.Backend] = b
	}
	for _, c := range []struct {
		backend string
		stale   []bool // accepted per round
		want    bool
	}{
		{"redlock", []bool{true, true, true}, true},
		{"redlock", []bool{false, false, false}, false},
		{"etcd", []bool{false, false, false}, true},
		{"etcd", []bool{false, true, false}, false},
		{"zookeeper", []bool{false, false, false}, true},
	} {
		i := 0
		m, err := playRounds(c.backend, func(key string) (bool, error) { i++; return c.stale[i-1], nil })
		if err != nil {
			t.Fatal(err)
		}
		r := pauseRow(s.Name, expect[c.backend], m)
		o := r.Scenario
		if o.AsExpect != c.want || o.Fencing.Rounds != pauseRounds || o.Fencing.StaleAccepted+o.Fencing.StaleRejected != pauseRounds ||
			r.Counts.Violations != int64(o.Fencing.StaleAccepted) || r.Name != "scenario/client-pause/"+c.backend || r.Backend != c.backend {
			t.Errorf("%s %v: row %+v, outcome %+v, fencing %+v", c.backend, c.stale, r, *o, *o.Fencing)
		}
	}
	failed := errors.New("lost")
	if _, err := playRounds("etcd", func(string) (bool, error) { return false, failed }); !errors.Is(err, failed) {
		t.Errorf("a failed round: %v", err)
	}
}
