package measure_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/measure"
)

// The toy locker of the example, measured in-process: the run's books close
// and its window is the one asked for.
func TestMeasureLockerToy(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  workloads.Config
	}{
		{"contended", workloads.Config{Workload: "contended", Keys: 2, Workers: 8, Duration: 500 * time.Millisecond, Warmup: 50 * time.Millisecond}},
		{"uncontended", workloads.Config{Workload: "uncontended", Workers: 4, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond}},
		{"open loop", workloads.Config{Workload: "contended", Keys: 4, Workers: 8, Rate: 2000, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := measure.MeasureLocker(context.Background(), newMutexLocker(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := run.Counts
			if c.Acquired == 0 {
				t.Fatal("nothing acquired: the test proves nothing")
			}
			if c.Attempts != c.Acquired+c.Busy+c.SplitBrain+c.Timeouts+c.Errors {
				t.Errorf("counts do not add up: %+v", c)
			}
			if c.Violations != 0 {
				t.Errorf("%d violations on a mutex", c.Violations)
			}
			if run.ValidityMarginUS == nil || run.ValidityMarginUS.Count != c.Acquired {
				t.Errorf("validity margins %+v, want one per acquisition (%d)", run.ValidityMarginUS, c.Acquired)
			}
			want := tc.cfg.Duration.Seconds()
			if d := math.Abs(run.DurationS - want); d > 0.01*want+0.010 {
				t.Errorf("measured %.4f s, want %.4f s ± 1 %% + 10 ms", run.DurationS, want)
			}
			if run.Workers != tc.cfg.Workers || run.Workload != tc.cfg.Workload || run.Interrupted {
				t.Errorf("run %+v does not describe its config %+v", run, tc.cfg)
			}
			if (tc.cfg.Rate > 0) != (run.Pacing != nil) {
				t.Errorf("rate %g, pacing %v", tc.cfg.Rate, run.Pacing)
			}
		})
	}
}

func TestWithDefaults(t *testing.T) {
	d := workloads.DefaultConfig()
	if got := measure.WithDefaults(workloads.Config{}); got != d {
		t.Errorf("zero config: %+v, want the defaults %+v", got, d)
	}
	set := workloads.Config{Workload: "zipf", Keys: 7, Workers: 3, Duration: time.Second, Warmup: time.Millisecond,
		Hold: time.Millisecond, RetryDelay: time.Microsecond, Tries: 2, Prefix: "p", Rate: 5, Ramp: time.Millisecond,
		ZipfS: 2, HoldDist: "exp"}
	if got := measure.WithDefaults(set); got != set {
		t.Errorf("set fields changed: %+v, want %+v", got, set)
	}
}

// A canceled context ends the run as interrupted, not as an error.
func TestMeasureLockerInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run, err := measure.MeasureLocker(ctx, newMutexLocker(), workloads.Config{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !run.Interrupted {
		t.Errorf("run %+v: not interrupted", run)
	}
}
