package sweep

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Measurer measures one cell: a *lab.Lab, or a fake in a test.
type Measurer interface {
	Measure(ctx context.Context, cfg lab.Config, obs lab.Observers) (lab.Cell, error)
}

var _ Measurer = (*lab.Lab)(nil)

// Observers watch a sweep; every field may be nil.
type Observers struct {
	// Cell watches every step's measurement.
	Cell lab.Observers
	// Step is told each step's verdict as soon as it is judged, with the
	// step's run name (strategy@by=load).
	Step func(run string, st capacity.Step)
}

// Result is a sweep's outcome: per strategy its steps and knee, and every
// step's cell in the order measured (their runs named strategy@by=load).
type Result struct {
	Sweeps []capacity.Sweep
	Cells  []lab.Cell
	// Interrupted: ctx was canceled mid-sweep; Sweeps and Cells hold what
	// was measured (possibly nothing), the last step judged interrupted.
	Interrupted bool
}

// Run sweeps each of cfg's strategies on m, one after the other: steps of
// rising load up to the first bad step (down from a first bad one to the
// first good one), then the bisection. An invalid cfg is a *results.FieldError
// (see Validate) before anything is measured. A ctx canceled mid-sweep is
// not an error: the result holds what was measured.
func Run(ctx context.Context, m Measurer, cfg Config, obs Observers) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	var res Result
	for _, mux := range cfg.Muxes {
		cell := cfg.Base
		cell.Driver.Mux = mux
		sw, cells, err := one(ctx, m, cfg, cell, obs)
		res.Cells = append(res.Cells, cells...)
		if err != nil && ctx.Err() == nil {
			return res, err
		}
		res.Sweeps = append(res.Sweeps, sw)
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
	}
	return res, nil
}

// one sweeps one strategy: cell is its Base.
func one(ctx context.Context, m Measurer, cfg Config, cell lab.Config, obs Observers) (capacity.Sweep, []lab.Cell, error) {
	sw := capacity.Sweep{Name: cell.Name(), Op: cfg.Op, SLOUS: float64(cfg.SLO) / 1e3, Stepped: string(cfg.By), Knee: -1}
	var cells []lab.Cell
	step := func(load float64) (bool, error) {
		s := cell
		if cfg.By == ByRate {
			s.Workload.Rate = load
		} else {
			s.Workload.Workers = int(load)
		}
		c, err := m.Measure(ctx, s, obs.Cell)
		if err != nil {
			return false, err
		}
		st := Judge(cfg, s, c.Run)
		c.Run.Name = fmt.Sprintf("%s@%s=%g", sw.Name, cfg.By, load)
		if obs.Step != nil {
			obs.Step(c.Run.Name, st)
		}
		cells = append(cells, c)
		sw.Steps = append(sw.Steps, st)
		// The knee is the highest load that held, whatever it achieved.
		if st.OK && (sw.Knee < 0 || load > cfg.By.Load(sw.Steps[sw.Knee])) {
			sw.Knee = len(sw.Steps) - 1
		}
		return st.OK, nil
	}
	err := searchKnee(ctx, cfg, step)
	return sw, cells, err
}

// AddTo puts r's runs (every step measured) and whether it was interrupted
// into sum.
func (r Result) AddTo(sum *results.Summary) {
	for _, c := range r.Cells {
		sum.Runs = append(sum.Runs, c.Run)
	}
	sum.Interrupted = sum.Interrupted || r.Interrupted
}
