package backends

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers/rueidis"
)

// TestRueidisOptions: the auto cells dial rueidis with DefaultTuning's
// batching settings (250 µs flush delay, one pipe), the other
// cells and --client-defaults without them, and the pool is the workers.
func TestRueidisOptions(t *testing.T) {
	def := DefaultTuning()
	for _, tc := range []struct {
		name   string
		tuning Tuning
		auto   bool
		want   rueidis.Options
	}{
		{"auto, lockbench defaults", def, true, rueidis.Options{Auto: true, PoolSize: 64, MaxFlushDelay: 250 * time.Microsecond, Pipes: 1}},
		{"auto, flags", Tuning{RueidisMaxFlushDelay: time.Millisecond, RueidisPipes: 4}, true, rueidis.Options{Auto: true, PoolSize: 64, MaxFlushDelay: time.Millisecond, Pipes: 4}},
		{"auto, library defaults", Tuning{LibraryDefaults: true, RueidisMaxFlushDelay: time.Millisecond}, true, rueidis.Options{Auto: true, PoolSize: 64}},
		{"pooled cells ignore the auto settings", def, false, rueidis.Options{PoolSize: 64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Spec{Workers: 64, Tuning: tc.tuning}
			if got := s.rueidisOptions(tc.auto); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
