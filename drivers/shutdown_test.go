package drivers

import (
	"context"
	"testing"
	"time"
)

// lagging is a context whose deadline has passed but whose timer has not
// fired yet: Err is still nil, as it is for a moment at every run's end.
type lagging struct{ context.Context }

func (lagging) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }
func (lagging) Err() error                  { return nil }

func TestIsShutdown(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	future, stop := context.WithTimeout(context.Background(), time.Hour)
	defer stop()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"running", context.Background(), false},
		{"deadline ahead", future, false},
		{"canceled", canceled, true},
		{"deadline passed, timer not fired", lagging{context.Background()}, true},
		{"marked after the run", ShuttingDown(context.Background()), true},
	} {
		if got := IsShutdown(tc.ctx); got != tc.want {
			t.Errorf("%s: IsShutdown = %v, want %v", tc.name, got, tc.want)
		}
	}
}
