package sweep

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/results/procstat"
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
	Step func(run string, st schema.SweepStep)
}

// result is a sweep's outcome: per strategy its steps and knee, and every
// step's cell in the order measured (their runs named strategy@by=load).
type result struct {
	Sweeps []schema.Sweep
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
	var host *schema.HostNoise // the last strategy's probe after it: the next one's before
	for _, mux := range cfg.Muxes {
		cell := cfg.Base
		cell.Driver.Mux = mux
		sw, cells, err := one(ctx, m, cfg, cell, len(res.Cells), host, obs)
		host = sw.HostAfter
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
// After the knee search it measures the knee's interval (probeRounds),
// then reads the curve: the safe rate, the interval widened by reruns,
// the noise floor, the USL of a closed loop and the plan for a target
// rate. The host's own noise is probed before the first step (unless
// before, the previous strategy's probe after its last step, already
// did) and after the last, and whether it changed between them said.
func one(ctx context.Context, m measurer, cfg Config, cell lab.Config, measured int, before *schema.HostNoise, obs Observers) (schema.Sweep, []lab.Cell, error) {
	s := &strategy{m: m, cfg: cfg, cell: cell, measured: measured, obs: obs, samples: map[float64][]int{}, index: map[float64]int{},
		sw: schema.Sweep{Name: cell.Name(), Op: cfg.Op, SLOUS: float64(cfg.SLO) / 1e3, Stepped: string(cfg.By), Knee: -1, Repeat: cfg.repeat()}}
	if s.sw.HostBefore = before; before == nil {
		s.sw.HostBefore = s.probeHost(ctx)
	}
	b, err := searchKnee(ctx, cfg, func(load float64, n int) (verdict, error) { return s.step(ctx, load, n) })
	sw := &s.sw
	sw.BadLoad = b.bad
	for _, load := range b.noise {
		sw.Steps[s.index[load]].Noise = true
	}
	// The knee is the highest load that held under the lowest that failed,
	// whatever it achieved.
	for i, st := range sw.Steps {
		load := cfg.By.Load(st)
		if st.OK && (b.bad == 0 || load < b.bad) && (sw.Knee < 0 || load > cfg.By.Load(sw.Steps[sw.Knee])) {
			sw.Knee = i
		}
	}
	if err == nil && sw.Knee >= 0 && ctx.Err() == nil && cfg.rounds() > 0 {
		err = s.probeRounds(ctx, probeLoads(cfg, sw.Steps, cfg.By.Load(sw.Steps[sw.Knee]), b.bad))
	}
	s.readCurve()
	if s.sw.HostBefore != nil && err == nil {
		if s.sw.HostAfter = s.probeHost(ctx); s.sw.HostAfter != nil {
			s.sw.HostChanged = procstat.HostChanged(*s.sw.HostBefore, *s.sw.HostAfter)
		}
	}
	for _, ks := range s.samples { // a load measured more than once: its runs are rounds
		for r, k := range ks {
			if len(ks) > 1 {
				s.cells[k].Run.Repeat = r + 1
			}
		}
	}
	return s.sw, s.cells, err
}

// strategy is one strategy's sweep in progress: its steps, and every
// measurement by load.
type strategy struct {
	m        measurer
	cfg      Config
	cell     lab.Config
	measured int
	obs      Observers
	sw       schema.Sweep
	cells    []lab.Cell
	samples  map[float64][]int // load → its measurements in cells
	index    map[float64]int   // load → its step in sw.Steps
	// roundsFrom is the first of cells the interval's rounds measured
	// (0: no round: the search's first step is cells[0]).
	roundsFrom int
}

// at is the cell at load.
func (s *strategy) at(load float64) lab.Config {
	c := s.cell
	if s.cfg.By == ByRate {
		c.Workload.Rate = load
	} else {
		c.Workload.Workers = int(load)
	}
	return c
}

// measure measures load once more, with keys of its own, and tells the
// step observer its verdict under the name of the step plus what.
func (s *strategy) measure(ctx context.Context, load float64, what string) (lab.Cell, error) {
	c := s.at(load)
	c.Workload.Prefix = fmt.Sprintf("%s:s%d", s.cell.Workload.Prefix, s.measured+len(s.cells)+1)
	m, err := s.m.Measure(ctx, c, s.obs.Cell)
	if err != nil {
		return m, err
	}
	m.Run.Name = fmt.Sprintf("%s@%s=%g", s.sw.Name, s.cfg.By, load)
	s.samples[load] = append(s.samples[load], len(s.cells))
	s.cells = append(s.cells, m)
	if s.obs.Step != nil {
		s.obs.Step(m.Run.Name+what, judge(s.cfg, c, m.Run))
	}
	return m, nil
}

// step is searchKnee's stepFunc: load measured up to n times, judged on
// the medians of its measurements, its step recorded.
func (s *strategy) step(ctx context.Context, load float64, n int) (verdict, error) {
	for len(s.samples[load]) < n {
		what := ""
		if n > 1 {
			what = fmt.Sprintf(" (%d of %d)", len(s.samples[load])+1, n)
		}
		c, err := s.measure(ctx, load, what)
		if err != nil {
			return verdict{}, err
		}
		if c.Run.Interrupted {
			break
		}
	}
	runs := s.runs(load)
	st, latencyOnly := judgeMedians(s.cfg, s.at(load), runs)
	if s.obs.Step != nil && n > 1 && len(runs) > 1 {
		s.obs.Step(fmt.Sprintf("%s@%s=%g (median of %d)", s.sw.Name, s.cfg.By, load, len(runs)), st)
	}
	if i, ok := s.index[load]; ok {
		s.sw.Steps[i] = st
	} else {
		s.index[load] = len(s.sw.Steps)
		s.sw.Steps = append(s.sw.Steps, st)
	}
	return verdict{ok: st.OK, latencyOnly: latencyOnly}, nil
}

// runs are load's measurements, in order.
func (s *strategy) runs(load float64) []schema.Run {
	runs := make([]schema.Run, len(s.samples[load]))
	for i, k := range s.samples[load] {
		runs[i] = s.cells[k].Run
	}
	return runs
}

// AddTo puts r's runs (every step measured) and whether it was interrupted
// into sum.
func (r result) AddTo(sum *schema.Summary) {
	for _, c := range r.Cells {
		sum.Runs = append(sum.Runs, c.Run)
	}
	sum.Interrupted = sum.Interrupted || r.Interrupted
}
