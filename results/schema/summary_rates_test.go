package schema

import "testing"

func TestCountsRates(t *testing.T) {
	for _, tc := range []struct {
		c              Counts
		split, retries float64
	}{
		{Counts{}, 0, 0},
		{Counts{Attempts: 10, Acquired: 5, Busy: 3, SplitBrain: 1, Timeouts: 1}, 0.25, 1},
		{Counts{Attempts: 4, SplitBrain: 4}, 1, 0},
		{Counts{Attempts: 8, Acquired: 8}, 0, 0},
	} {
		split, retries := tc.c.Rates()
		if split != tc.split || retries != tc.retries {
			t.Errorf("%+v: rates %v, %v; want %v, %v", tc.c, split, retries, tc.split, tc.retries)
		}
	}
}
