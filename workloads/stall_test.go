package workloads

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
)

func TestStallsArmTake(t *testing.T) {
	const ms = time.Millisecond
	type op struct {
		arm    bool // else take
		worker int
		d      time.Duration // arm: the stall; take: the one expected
	}
	cases := []struct {
		name  string
		ops   []op
		taken int64
	}{
		{"nothing armed", []op{{false, 0, 0}, {false, 1, 0}}, 0},
		{"armed once, taken once", []op{{true, 1, 5 * ms}, {false, 0, 0}, {false, 1, 5 * ms}, {false, 1, 0}}, 1},
		{"re-arming before the take replaces", []op{{true, 0, 5 * ms}, {true, 0, 7 * ms}, {false, 0, 7 * ms}, {false, 0, 0}}, 1},
		{"armed again after the take", []op{{true, 0, 5 * ms}, {false, 0, 5 * ms}, {true, 0, 3 * ms}, {false, 0, 3 * ms}}, 2},
		{"out of range ignored", []op{{true, -1, ms}, {true, 2, ms}, {false, 0, 0}, {false, 1, 0}, {false, 2, 0}, {false, -1, 0}}, 0},
		{"zero or negative ignored", []op{{true, 0, 0}, {true, 1, -ms}, {false, 0, 0}, {false, 1, 0}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewStalls(2)
			for i, o := range c.ops {
				if o.arm {
					s.Arm(o.worker, o.d)
				} else if got := s.take(o.worker); got != o.d {
					t.Errorf("op %d: take(%d) = %v, want %v", i, o.worker, got, o.d)
				}
			}
			if got := s.Taken(); got != c.taken {
				t.Errorf("Taken() = %d, want %d", got, c.taken)
			}
		})
	}
}

func TestStallsNil(t *testing.T) {
	var s *Stalls
	s.Arm(0, time.Second) // no panic
	if d := s.take(0); d != 0 {
		t.Errorf("nil take = %v", d)
	}
	if n := s.Taken(); n != 0 {
		t.Errorf("nil Taken = %d", n)
	}
	if d := NewStalls(0).take(0); d != 0 {
		t.Errorf("no workers: take = %v", d)
	}
}

// sectionReferee keeps, per worker, every critical section's length
// (granted → released). Each worker writes only its own slot; they are read
// after Run has returned. released, if set, is told each worker's count of
// sections so far, from that worker's goroutine.
type sectionReferee struct {
	noReferee
	granted  []int64
	sections [][]time.Duration
	released func(w, n int)
}

func (r *sectionReferee) Granted(w int, _ string, _, granted, _ int64, _ uint64) {
	r.granted[w] = granted
}

func (r *sectionReferee) Released(w int, _ string, at int64) {
	r.sections[w] = append(r.sections[w], time.Duration(at-r.granted[w]))
	if r.released != nil {
		r.released(w, len(r.sections[w]))
	}
}

// TestRunStallsArmedWorker: worker 0 is armed mid-run, as the fault schedule
// does; exactly one of its critical sections (grant to release) lasts the
// stall, and no section of the other worker does. Events, not sleeps, pace
// it: the stall is armed once worker 0 has released a few sections, and the
// run is stopped once both workers have gone on for a few more, so a loaded
// machine can neither arm it late nor cut it at the window's end. The stall
// is long against a 1 ms hold and scaled for the machine's load, so that
// only the stall makes a section that long.
func TestRunStallsArmedWorker(t *testing.T) {
	const armAfter, after = 5, 10 // worker 0's sections before the arm; each worker's after the stall
	d := slow.D(200 * time.Millisecond)
	cfg := DefaultConfig()
	cfg.Workload, cfg.Keys, cfg.Workers, cfg.Warmup, cfg.Duration = "contended", 2, 2, 0, time.Minute // a bound: stopped below
	cfg.Hold = time.Millisecond
	stalls := NewStalls(cfg.Workers)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stallTaken atomic.Bool
	var doneAfter [2]atomic.Bool
	ref := &sectionReferee{granted: make([]int64, cfg.Workers), sections: make([][]time.Duration, cfg.Workers),
		released: func(w, n int) {
			switch {
			case w == 0 && n == armAfter:
				stalls.Arm(0, d)
			case w == 0 && n == armAfter+1:
				stallTaken.Store(true) // the section after the arm held the stall
			case stallTaken.Load():
				if n >= armAfter+1+after || (w == 1 && n >= after) {
					doneAfter[w].Store(true)
				}
			}
			if doneAfter[0].Load() && doneAfter[1].Load() {
				cancel()
			}
		}}
	env := Env{Locker: &memLocker{lease: memLease{until: time.Now().Add(time.Hour)}},
		Registry: record.NewRegistry(false), Clock: record.NewClock(), Referee: ref, Stalls: stalls}
	if _, err := Run(ctx, cfg, env); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Fatalf("the run reached its %v bound: the stall was never taken or the workers stopped", cfg.Duration)
	}
	if n := stalls.Taken(); n != 1 {
		t.Errorf("Taken() = %d, want 1", n)
	}
	for w, secs := range ref.sections {
		long := 0
		for _, s := range secs {
			if s >= d {
				long++
			}
		}
		want := map[int]int{0: 1, 1: 0}[w]
		if long != want || len(secs) < after {
			t.Errorf("worker %d: %d of %d critical sections ≥ %v, want %d (and ≥ %d sections)", w, long, len(secs), d, want, after)
		}
	}
	if len(ref.sections[0]) > armAfter && ref.sections[0][armAfter] < d {
		t.Errorf("worker 0's section after the arm lasted %v, want the stall %v", ref.sections[0][armAfter], d)
	}
}
