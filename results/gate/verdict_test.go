package gate

import (
	"slices"
	"testing"
)

func TestFailedChecks(t *testing.T) {
	for _, c := range []struct {
		rows []Row
		want []string
	}{
		{nil, nil},
		{[]Row{{Run: "a", Check: "p99", Pass: true}}, nil},
		{[]Row{{Run: "a", Check: "p99", Pass: true}, {Run: "b", Check: "cycles/s"}, {Run: "a", Check: "violations==0"}},
			[]string{"b cycles/s", "a violations==0"}},
	} {
		if got := (Verdict{Rows: c.rows}).FailedChecks(); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.rows, got, c.want)
		}
	}
}
