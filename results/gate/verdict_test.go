package gate

import (
	"errors"
	"slices"
	"testing"
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
