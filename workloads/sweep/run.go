package sweep

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/internal/results/capacity"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// measurer measures one cell: a *lab.Lab, or a fake in a test.
type measurer interface {
	Measure(ctx context.Context, cfg lab.Config, obs lab.Observers) (lab.Cell, error)
}

var _ measurer = (*lab.Lab)(nil)

// Observers watch a sweep; every field may be nil.
type Observers struct {
	// Cell watches every step's measurement.
	Cell lab.Observers
	// Step is told each measurement's verdict as soon as it is judged,
	// with the step's run name (strategy@by=load, then "(k of n)" for a
	// step measured n times), and the verdict of a step's medians once it
	// has several ("(median of n)").
	Step func(run string, st capacity.Step)
}

// result is a sweep's outcome: per strategy its steps and knee, and every
// step's cell in the order measured (their runs named strategy@by=load).
type result struct {
	Sweeps []capacity.Sweep
	Cells  []lab.Cell
	// Interrupted: ctx was canceled mid-sweep; Sweeps and Cells hold what
	// was measured (possibly nothing), the last step judged interrupted.
	Interrupted bool
}

// Run sweeps each of cfg's strategies on m, one after the other (see
// searchKnee): steps of rising load up to the first confirmed bad step,
// the step below it confirmed (down from there until one holds), then
// the bisection. Every measurement has keys of its own (a fresh
// Workload.Prefix), so keys a cut-short cycle left held cannot block the
// next one. An invalid cfg is a *fielderr.Error (see Validate) before
// anything is measured. A ctx canceled mid-sweep is not an error: the
// result holds what was measured.
func Run(ctx context.Context, m measurer, cfg Config, obs Observers) (result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return result{}, err
	}
	var res result
	for _, mux := range cfg.Muxes {
		cell := cfg.Base
		cell.Driver.Mux = mux
		sw, cells, err := one(ctx, m, cfg, cell, len(res.Cells), obs)
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

// one sweeps one strategy: cell is its Base; measured is how many
// measurements the sweep made before it (their key prefixes are taken).
func one(ctx context.Context, m measurer, cfg Config, cell lab.Config, measured int, obs Observers) (capacity.Sweep, []lab.Cell, error) {
	sw := capacity.Sweep{Name: cell.Name(), Op: cfg.Op, SLOUS: float64(cfg.SLO) / 1e3, Stepped: string(cfg.By), Knee: -1, Repeat: cfg.repeat()}
	var cells []lab.Cell
	samples := map[float64][]int{} // load → its measurements in cells
	index := map[float64]int{}     // load → its step in sw.Steps
	step := func(load float64, n int) (bool, error) {
		s := cell
		if cfg.By == ByRate {
			s.Workload.Rate = load
		} else {
			s.Workload.Workers = int(load)
		}
		for len(samples[load]) < n {
			s.Workload.Prefix = fmt.Sprintf("%s:s%d", cell.Workload.Prefix, measured+len(cells)+1)
			c, err := m.Measure(ctx, s, obs.Cell)
			if err != nil {
				return false, err
			}
			c.Run.Name = fmt.Sprintf("%s@%s=%g", sw.Name, cfg.By, load)
			samples[load] = append(samples[load], len(cells))
			cells = append(cells, c)
			if obs.Step != nil {
				name := c.Run.Name
				if n > 1 {
					name += fmt.Sprintf(" (%d of %d)", len(samples[load]), n)
				}
				obs.Step(name, judge(cfg, s, c.Run))
			}
			if c.Run.Interrupted {
				break
			}
		}
		runs := make([]schema.Run, len(samples[load]))
		for i, k := range samples[load] {
			runs[i] = cells[k].Run
		}
		st := judgeMedians(cfg, s, runs)
		if obs.Step != nil && n > 1 && len(runs) > 1 {
			obs.Step(fmt.Sprintf("%s@%s=%g (median of %d)", sw.Name, cfg.By, load, len(runs)), st)
		}
		if i, ok := index[load]; ok {
			sw.Steps[i] = st
		} else {
			index[load] = len(sw.Steps)
			sw.Steps = append(sw.Steps, st)
		}
		return st.OK, nil
	}
	b, err := searchKnee(ctx, cfg, step)
	sw.BadLoad = b.bad
	// The knee is the highest load that held under the lowest that failed,
	// whatever it achieved.
	for i, st := range sw.Steps {
		load := cfg.By.Load(st)
		if st.OK && (b.bad == 0 || load < b.bad) && (sw.Knee < 0 || load > cfg.By.Load(sw.Steps[sw.Knee])) {
			sw.Knee = i
		}
	}
	for _, ks := range samples { // a load measured more than once: its runs are rounds
		for r, k := range ks {
			if len(ks) > 1 {
				cells[k].Run.Repeat = r + 1
			}
		}
	}
	return sw, cells, err
}

// AddTo puts r's runs (every step measured) and whether it was interrupted
// into sum.
func (r result) AddTo(sum *schema.Summary) {
	for _, c := range r.Cells {
		sum.Runs = append(sum.Runs, c.Run)
	}
	sum.Interrupted = sum.Interrupted || r.Interrupted
}
