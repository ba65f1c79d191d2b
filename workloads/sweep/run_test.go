package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// workers is a closed-loop sweep from start workers, doubling, each step
// decided by one measurement.
func workers(start float64, maxSteps, refine int) Config {
	return Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: start, Factor: 2, MaxSteps: maxSteps, Refine: refine, Repeat: 1,
		IntervalRounds: NoInterval}
}

// TestRun drives whole sweeps on a fake lab whose p99 is a function of
// the load: the steps measured, the knee and why the first bad step was.
func TestRun(t *testing.T) {
	rate := Config{Base: lab.DefaultConfig(), By: ByRate, Start: 200, Factor: 2, MaxSteps: 6, Refine: NoRefine, Repeat: 1, IntervalRounds: NoInterval}
	oneSecond := lab.DefaultConfig()
	oneSecond.Workload.Duration = time.Second
	tests := []struct {
		name      string
		cfg       Config
		lab       fakeLab
		wantLoads []float64
		wantKnee  float64 // load of the knee; -1: none
		wantWhy   string  // in the reason of the last bad step
	}{
		{"knee found, then bisected", workers(100, 20, 3), fakeLab{p99: under(500)},
			[]float64{100, 200, 400, 800, 1131, 600, 500, 550}, 500, "p99 10ms over the SLO 2ms"},
		{"no knee within max steps: the last step is the knee", workers(1, 3, 2), fakeLab{p99: under(1e9)},
			[]float64{1, 2, 4}, 4, ""},
		{"first step already bad: down until one holds, then bisect", workers(1000, 20, 1), fakeLab{p99: under(300)},
			[]float64{1000, 500, 250, 375}, 250, "over the SLO"},
		{"nothing holds down to 1 worker", workers(4, 20, 2), fakeLab{p99: under(0)},
			[]float64{4, 2, 1}, -1, "over the SLO"},
		{"bisection to the whole load", workers(100, 20, 10), fakeLab{p99: under(537)},
			[]float64{100, 200, 400, 800, 1131, 600, 500, 550, 525, 538, 532, 535, 537}, 537, "over the SLO"},
		{"whole loads: no bisection between neighbours", workers(1, 20, 5), fakeLab{p99: under(1)},
			[]float64{1, 2, 3}, 1, "over the SLO"},
		{"open loop: a rate not kept up fails with a good p99", rate, fakeLab{p99: under(1e9), capacity: 1000},
			[]float64{200, 400, 800, 1600}, 800, "kept up with 62% of the rate"},
		{"closed loop: the same lab never fails", workers(200, 4, NoRefine), fakeLab{p99: under(1e9), capacity: 1000},
			[]float64{200, 400, 800, 1600}, 1600, ""},
		{"nothing measured: no knee", workers(4, 20, 2), fakeLab{p99: func(float64) float64 { return -1 }},
			[]float64{4, 2, 1}, -1, "no cycle measured"},
		{"open loop steps down to 100 cycles a step", Config{Base: oneSecond, Start: 800, Factor: 2, Repeat: 1, IntervalRounds: NoInterval}, fakeLab{p99: under(0)},
			[]float64{800, 400, 200, 100}, -1, "over the SLO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var told []string
			obs := Observers{Step: func(run string, st schema.SweepStep) { told = append(told, run) }}
			res, err := Run(context.Background(), &tt.lab, tt.cfg, obs)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.lab.loads(); fmt.Sprint(got) != fmt.Sprint(tt.wantLoads) {
				t.Fatalf("loads %v, want %v", got, tt.wantLoads)
			}
			if len(res.Sweeps) != 1 || len(res.Cells) != len(tt.wantLoads) || res.Interrupted {
				t.Fatalf("%d sweeps, %d cells, interrupted %v", len(res.Sweeps), len(res.Cells), res.Interrupted)
			}
			sw := res.Sweeps[0]
			knee := -1.0
			if sw.Knee >= 0 {
				knee = By(sw.Stepped).Load(sw.Steps[sw.Knee])
			}
			if knee != tt.wantKnee {
				t.Errorf("knee %v (step %d), want %v", knee, sw.Knee, tt.wantKnee)
			}
			why := ""
			for _, st := range sw.Steps {
				if !st.OK {
					why = st.Reason
				}
			}
			if tt.wantWhy == "" && why != "" || !strings.Contains(why, tt.wantWhy) {
				t.Errorf("reason %q, want %q", why, tt.wantWhy)
			}
			for i, c := range res.Cells {
				if told[i] != c.Run.Name || !strings.HasPrefix(c.Run.Name, sw.Name+"@"+sw.Stepped+"=") {
					t.Errorf("step %d named %q, told %q", i, c.Run.Name, told[i])
				}
			}
		})
	}
}

// TestRunInterrupted: a ctx canceled mid-sweep is no error: the result
// holds the steps measured, the step cut short judged interrupted and no
// later strategy begun; canceled before the first step, nothing.
func TestRunInterrupted(t *testing.T) {
	testenv.Servers(t)
	cfg := workers(1, 20, 2)
	cfg.Muxes = []string{"fanout", "pipeline"}
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeLab{p99: under(1e9), cancelAt: 3, cancel: cancel}
	res, err := Run(ctx, f, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || len(res.Cells) != 3 || len(res.Sweeps) != 1 {
		t.Fatalf("interrupted %v, %d cells, %d sweeps: want the 3 steps of the first strategy", res.Interrupted, len(res.Cells), len(res.Sweeps))
	}
	sw := res.Sweeps[0]
	if last := sw.Steps[2]; last.OK || last.Reason != "interrupted" || sw.Knee != 1 {
		t.Fatalf("last step %+v, knee %d: want it interrupted, the knee the step before", last, sw.Knee)
	}

	res, err = Run(ctx, &fakeLab{p99: under(1e9)}, cfg, Observers{})
	if err != nil || !res.Interrupted || len(res.Cells) != 0 || len(res.Sweeps) != 1 || len(res.Sweeps[0].Steps) != 0 {
		t.Fatalf("canceled before: %+v, %v", res, err)
	}
}

// TestRunMuxes: each strategy is swept on the same lab, one after the
// other, each from the first load.
func TestRunMuxes(t *testing.T) {
	cfg := workers(1, 2, NoRefine)
	cfg.Muxes = []string{"sequential", "pipeline"}
	f := &fakeLab{p99: under(1e9)}
	res, err := Run(context.Background(), f, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sw := range res.Sweeps {
		names = append(names, sw.Name)
	}
	if fmt.Sprint(names) != "[redlock/goredis/sequential/uncontended redlock/goredis/pipeline/uncontended]" ||
		fmt.Sprint(f.loads()) != "[1 2 1 2]" || f.measured[3].Driver.Mux != "pipeline" {
		t.Fatalf("sweeps %v, loads %v", names, f.loads())
	}
}

// TestRunMeasureError: a step that cannot be measured ends the sweep with
// its error, keeping the steps before it; a bad config measures nothing.
func TestRunMeasureError(t *testing.T) {
	f := &fakeLab{p99: under(1e9), failAt: 2}
	res, err := Run(context.Background(), f, workers(1, 20, 2), Observers{})
	if !errors.Is(err, errMeasure) || len(res.Cells) != 1 {
		t.Fatalf("err %v, %d cells: want errMeasure after 1 cell", err, len(res.Cells))
	}
	f = &fakeLab{p99: under(1e9)}
	_, err = Run(context.Background(), f, Config{Factor: 0.5}, Observers{})
	var fe *fielderr.Error
	if !errors.As(err, &fe) || fe.Field != "factor" || len(f.measured) != 0 {
		t.Fatalf("err %v, %d measured: want a FieldError on factor, nothing measured", err, len(f.measured))
	}
}
