package schema

import "testing"

func TestMeasured(t *testing.T) {
	r := Run{LatencyUS: map[string]Percentiles{"cycle": {Count: 3, P99: 1}, "release": {}}}
	for op, want := range map[string]bool{"cycle": true, "release": false, "extend": false, "bogus": false} {
		if got := Measured(r, op); got != want {
			t.Errorf("Measured(%s) = %v, want %v", op, got, want)
		}
	}
}
