package gate

import (
	"errors"
	"slices"
	"testing"

	"github.com/lockbench/lockbench/internal/exit"
)

func TestFailedChecks(t *testing.T) {
	for _, c := range []struct {
		rows []Row
		want []string
	}{
		{nil, nil},
		{[]Row{{Run: "a", Check: "p99"}}, nil},
		{[]Row{{Run: "a", Check: "p99"}, {Run: "b", Check: "cycles/s", Decision: Regressed}, {Run: "c", Check: "x", Decision: Inconclusive},
			{Run: "a", Check: "violations==0", Decision: Regressed}},
			[]string{"b cycles/s", "a violations==0"}},
	} {
		if got := (Verdict{Rows: c.rows}).FailedChecks(); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.rows, got, c.want)
		}
	}
}

func TestParseThresholds(t *testing.T) {
	for _, c := range []struct {
		exprs []string
		n     int
		bad   string // the expression named; "" for success
	}{
		{nil, 0, ""},
		{[]string{"cycle.p99<2ms", "violations==0"}, 2, ""},
		{[]string{"cycle.p99<2ms", "nonsense"}, 0, "nonsense"},
	} {
		ts, err := ParseThresholds(c.exprs)
		if c.bad != "" {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != "Thresholds" || fe.Value != `"`+c.bad+`"` {
				t.Errorf("%q: error %v, want one naming %q", c.exprs, err, c.bad)
			}
			continue
		}
		if err != nil || len(ts) != c.n {
			t.Errorf("%q: %d thresholds, %v", c.exprs, len(ts), err)
		}
	}
}

// TestVerdictErr: a pass ends without an error; a regression with exit 1
// naming the checks that regressed; an undecided gate with exit 3 naming
// the undecided checks, or why nothing was judged.
func TestVerdictErr(t *testing.T) {
	if err := (Verdict{Rows: []Row{{Run: "r", Check: "cycles_per_s"}}}).Err(); err != nil {
		t.Errorf("pass: %v", err)
	}
	for _, tc := range []struct {
		v    Verdict
		code int
		msg  string
	}{
		{Verdict{Decision: Regressed, Rows: []Row{{Run: "r", Check: "p99", Decision: Regressed}}}, exit.Failure, "gate failed: r p99"},
		{Verdict{Decision: Inconclusive, Rows: []Row{{Run: "r", Check: "p99", Decision: Inconclusive}}}, exit.Inconclusive,
			"gate inconclusive: r p99 (more runs a side, or --until-decided, may decide)"},
		{Verdict{Decision: Inconclusive, Rounds: "1 round a side"}, exit.Inconclusive,
			"gate inconclusive: 1 round a side (more runs a side, or --until-decided, may decide)"},
	} {
		var e exit.Error
		if err := tc.v.Err(); !errors.As(err, &e) || e.Code != tc.code || e.Msg != tc.msg {
			t.Errorf("Err() = %#v, want %d %q", err, tc.code, tc.msg)
		}
	}
}
