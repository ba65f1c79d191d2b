package gate

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// fakeSides measure base and head from fixed patterns on a fake clock that
// advances a second per measurement, logging the order they ran in.
type fakeSides struct {
	now   time.Time
	order []string
	n     int
}

func (f *fakeSides) measure(side string, cyclesPerS, spread float64, version string) Measure {
	pattern := []float64{0, 1, -1, 0.5, -0.5, 0.8, -0.8, 0.2, -0.2, 0.6, -0.6, 0.9, -0.9, 0.3, -0.3}
	i := 0
	if side == "head" {
		i = 7 // noise of its own, not the baseline's
	}
	return func(ctx context.Context) (*schema.Summary, error) {
		f.now = f.now.Add(time.Second)
		f.order = append(f.order, side)
		f.n++
		x := cyclesPerS * (1 + spread*pattern[i%len(pattern)])
		i++
		s := src("", int64(f.n), run("a", x, 1000)).Summary
		s.Schema = version
		return s, nil
	}
}

func TestUntilDecided(t *testing.T) {
	tests := []struct {
		name         string
		head, spread float64
		budget       time.Duration
		schema       string
		outcome      Decision
		rounds       int
		says, err    string
	}{
		// Pairs of rounds: 8 is the first look whose smallest p (1/2^8) is
		// below α/7.
		{"the same build", 10000, 0.01, time.Hour, schema.Schema, pass, Looks[0], "decided after 8 rounds", ""},
		{"half the throughput", 5000, 0.01, time.Hour, schema.Schema, Regressed, Looks[0], "decided after 8 rounds", ""},
		{"too noisy for the budget", 9000, 0.5, 20 * time.Second, schema.Schema, Inconclusive, 10, "budget spent", ""},
		{"too noisy for every look", 9000, 0.5, time.Hour, schema.Schema, Inconclusive, Looks[len(Looks)-1], "every look made", ""},
		{"a side writes an unknown schema", 10000, 0.01, time.Hour, "lockbench/v9", 0, 0, "", "unknown schema version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeSides{now: time.Unix(0, 0)}
			r := Rounds{Base: f.measure("base", 10000, tc.spread, schema.Schema), Head: f.measure("head", tc.head, tc.spread, tc.schema),
				Budget: tc.budget, Now: func() time.Time { return f.now }}
			v, err := untilDecided(context.Background(), r, DefaultOptions())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision != tc.outcome || !strings.Contains(v.Rounds, tc.says) || len(f.order) != 2*tc.rounds {
				t.Fatalf("%v after %d measurements (%q), want %v after %d rounds saying %q: %+v",
					v.Decision, len(f.order), v.Rounds, tc.outcome, tc.rounds, tc.says, v.Rows)
			}
			checkOrder(t, f.order)
		})
	}
}

// checkOrder: every round runs each side once; each pair of rounds runs
// base first once and head first once; and over many pairs the order
// within a pair varies, so no side holds fixed places in every four runs.
func checkOrder(t *testing.T, order []string) {
	t.Helper()
	firsts := map[string]int{}
	for i := 0; i+1 < len(order); i += 2 {
		if order[i] == order[i+1] {
			t.Fatalf("round %d ran %v", i/2+1, order[i:i+2])
		}
		if i%4 == 2 && order[i] == order[i-2] {
			t.Fatalf("rounds %d and %d both ran %s first: %v", i/2, i/2+1, order[i], order)
		}
		if i%4 == 0 {
			firsts[order[i]]++
		}
	}
	if pairs := len(order) / 4; pairs >= 8 && (firsts["base"] == 0 || firsts["head"] == 0) {
		t.Errorf("%d pairs of rounds, every one opened by the same side: %v", pairs, order)
	}
}

// TestUntilDecidedInterrupted: a cancelled session judges the rounds it
// has, and says so.
func TestUntilDecidedInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeSides{now: time.Unix(0, 0)}
	base := f.measure("base", 10000, 0.01, schema.Schema)
	n := 0
	head := func(c context.Context) (*schema.Summary, error) {
		if n++; n == 3 {
			cancel()
		}
		return f.measure("head", 10000, 0.01, schema.Schema)(c)
	}
	v, err := untilDecided(ctx, Rounds{Base: base, Head: head, Budget: time.Hour, Now: func() time.Time { return f.now }}, DefaultOptions())
	if err != nil || v.Decision != Inconclusive || !strings.Contains(v.Rounds, "interrupted") {
		t.Fatalf("%v %q %v: want inconclusive, interrupted", v.Decision, v.Rounds, err)
	}
}

// TestSpend: the looks spend α once in all, every look some of it.
func TestSpend(t *testing.T) {
	sum := 0.0
	for _, s := range spend {
		if !(s > 0) {
			t.Errorf("a look spends %v", s)
		}
		sum += s
	}
	if len(spend) != len(Looks) || math.Abs(sum-1) > 1e-12 {
		t.Errorf("%d shares adding up to %v for %d looks, want one each adding up to 1", len(spend), sum, len(Looks))
	}
}

// TestUntilDecidedBudgetStopsACommand: a side still running when the
// budget ends is stopped there (its context ends), and the verdict says
// why nothing more was measured.
func TestUntilDecidedBudgetStopsACommand(t *testing.T) {
	f := &fakeSides{now: time.Unix(0, 0)}
	base := f.measure("base", 10000, 0.01, schema.Schema)
	hang := func(ctx context.Context) (*schema.Summary, error) { // `sleep 1000`
		<-ctx.Done()
		return nil, ctx.Err()
	}
	type result struct {
		v   Verdict
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := untilDecided(context.Background(), Rounds{Base: base, Head: hang, Budget: 200 * time.Millisecond}, DefaultOptions())
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.v.Decision != Inconclusive || !strings.Contains(r.v.Rounds, "budget spent: the head command was still running") {
			t.Fatalf("%v %q %v: want inconclusive, the head command stopped at the budget", r.v.Decision, r.v.Rounds, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the session outlived its 200ms budget by a minute: the hanging command was never stopped")
	}
}
