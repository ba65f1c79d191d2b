package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
	"github.com/lockbench/lockbench/workloads/lab"
)

// SweepConfig is a capacity sweep. It is written into the summary.
type SweepConfig struct {
	Base     RunConfig     `json:"base"`
	Muxes    []string      `json:"muxes"`
	By       string        `json:"by"` // rate | workers
	Op       string        `json:"op"`
	SLO      time.Duration `json:"slo"`
	Start    float64       `json:"start"`
	Factor   float64       `json:"factor"`
	MaxSteps int           `json:"max_steps"`
	Refine   int           `json:"refine"`
	// MaxErrorRate is the share of attempts (errors and timeouts, failed
	// releases) a step may have: one timeout in 10⁵ cycles on a noisy host
	// should not end a sweep, a failing backend must.
	MaxErrorRate float64 `json:"max_error_rate"`
}

func init() { extraCommands = append(extraCommands, newSweepCmd) }

func newSweepCmd() *cobra.Command {
	sc := SweepConfig{Base: defaultRunConfig(), By: "rate", Op: "cycle", SLO: 2 * time.Millisecond,
		Start: 200, Factor: 1.5, MaxSteps: 20, Refine: 2, MaxErrorRate: 0.001}
	sc.Base.Workload.Duration, sc.Base.Workload.Warmup = 3*time.Second, time.Second
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Capacity planning: raise the load until p99 breaks the SLO; report the knee",
		Long: `sweep measures each --muxes strategy at increasing load on the same servers:
with --by rate (default) an open-loop schedule of --start cycles/s times
--factor each step (latency from the intended start, so queueing shows), with
--by workers a closed loop of --start workers times --factor. It stops a
strategy at the first step whose p99 of --op exceeds --slo, or that has
errors and timeouts above --max-error-rate, or violations, or (open loop) that falls 10 % short of its
rate; then bisects --refine times between the last good and the first bad
step. A first step that already fails is followed by lower loads (divided
by --factor) until one holds. The knee is the highest good step: the
sustainable load.

--out DIR writes every step's summary and .hlog files plus sweep.json; run
'lockbench report DIR' for the latency-vs-throughput plot.`,
		Example: `  lockbench sweep --slo 2ms
  lockbench sweep --muxes sequential,fanout,pipeline --client rueidis --slo 5ms --out sweep/
  lockbench sweep --by workers --start 1 --factor 2 --slo 1ms`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := sc.validate(); err != nil {
				return err
			}
			sc.Base.setIO(cmd)
			return runSweep(cmd.Context(), sc)
		},
	}
	fs := cmd.Flags()
	bindDriver(fs, &sc.Base)
	bindTopology(fs, &sc.Base)
	bindEtcd(fs, &sc.Base)
	bindBackends(fs, &sc.Base)
	bindWorkload(fs, &sc.Base)
	bindOutput(fs, &sc.Base)
	bindDisplay(fs, &sc.Base)
	fs.StringSliceVar(&sc.Muxes, "muxes", nil, "strategies to sweep, comma-separated (default: --mux)")
	fs.StringVar(&sc.By, "by", sc.By, "what to step: rate (open loop, --workers fixed) | workers (closed loop)")
	fs.StringVar(&sc.Op, "op", sc.Op, "op whose p99 is held to --slo: "+strings.Join(sweepOps, "|"))
	fs.DurationVar(&sc.SLO, "slo", sc.SLO, "p99 latency objective of --op")
	fs.Float64Var(&sc.Start, "start", sc.Start, "first step: cycles/s (--by rate) or workers (--by workers)")
	fs.Float64Var(&sc.Factor, "factor", sc.Factor, "each step multiplies the load by this")
	fs.IntVar(&sc.MaxSteps, "max-steps", sc.MaxSteps, "most steps per strategy before bisecting")
	fs.IntVar(&sc.Refine, "refine", sc.Refine, "bisection steps between the last good and first bad step")
	fs.Float64Var(&sc.MaxErrorRate, "max-error-rate", sc.MaxErrorRate, "share of attempts that may fail (errors, timeouts, failed releases) in a good step; 0: none")
	return cmd
}

func (sc *SweepConfig) validate() error {
	if len(sc.Muxes) == 0 {
		sc.Muxes = []string{sc.Base.Driver.Mux}
	}
	switch {
	case sc.By != "rate" && sc.By != "workers":
		return usagef("--by %q: want rate or workers", sc.By)
	case sc.SLO <= 0:
		return usagef("--slo %v: must be positive", sc.SLO)
	case sc.Factor <= 1 || math.IsInf(sc.Factor, 0) || math.IsNaN(sc.Factor):
		return usagef("--factor %v: must be more than 1", sc.Factor)
	case sc.MaxSteps < 1:
		return usagef("--max-steps %d: must be at least 1", sc.MaxSteps)
	case !(sc.MaxErrorRate >= 0 && sc.MaxErrorRate < 1):
		return usagef("--max-error-rate %v: want a share in [0, 1)", sc.MaxErrorRate)
	case sc.Refine < 0:
		return usagef("--refine %d: must not be negative", sc.Refine)
	case sc.By == "workers" && sc.Start < 1:
		return usagef("--start %v: --by workers starts at 1 worker or more", sc.Start)
	case !(sc.Start > 0) || math.IsInf(sc.Start, 0):
		return usagef("--start %v: must be positive", sc.Start)
	case sc.By == "rate" && sc.Base.Workload.Rate != 0:
		return usagef("--rate %v: sweep --by rate sets the rate itself (use --start)", sc.Base.Workload.Rate)
	}
	if err := checkSweepOp(sc.Op); err != nil {
		return err
	}
	for _, mux := range sc.Muxes {
		c := sc.Base
		c.Driver.Mux = mux
		if sc.By == "workers" {
			c.Workload.Workers = int(sc.Start)
		}
		if err := c.validate(); err != nil {
			return err
		}
	}
	return sc.Base.validate()
}

// runSweep brings the servers up once and sweeps each strategy on them.
func runSweep(ctx context.Context, sc SweepConfig) error {
	started := time.Now()
	stopMetrics, err := startMetrics(&sc.Base)
	if err != nil {
		return err
	}
	defer stopMetrics()
	l, err := upLab(ctx, sc.Base.Topology, &sc.Base)
	if err != nil {
		return upError(ctx, err)
	}
	defer l.Close()
	sum, err := results.NewSummary(started, sc)
	if err != nil {
		return err
	}
	withLab(ctx, sum, l, &sc.Base)
	var cells []measured
	var sweeps []capacity.Sweep
	for _, mux := range sc.Muxes {
		c := sc.Base
		c.Driver.Mux = mux
		c.Quiet = true
		sw, ms, err := sweepOne(ctx, sc, c, l)
		cells = append(cells, ms...)
		if err != nil && ctx.Err() == nil {
			return err
		}
		sweeps = append(sweeps, sw)
		if ctx.Err() != nil {
			break // a shutdown: write the steps measured so far
		}
	}
	if len(cells) == 0 && ctx.Err() != nil {
		return errInterruptedEarly
	}
	for _, m := range cells {
		sum.Runs = append(sum.Runs, m.Run)
	}
	sum.Interrupted = ctx.Err() != nil
	switch {
	case sc.Base.Format == "gobench" || sc.Base.Format == "csv":
		// stdout is for benchmark lines or CSV; the knees go to stderr.
		write := results.WriteGoBench
		if sc.Base.Format == "csv" {
			write = func(w io.Writer, s *results.Summary) error { return results.WriteCSV(w, s.Runs) }
		}
		if err := write(sc.Base.out(), sum); err != nil {
			return err
		}
		printKnees(sc.Base.errOut(), sweeps, sc)
	case sc.Base.JSON == "-":
		printKnees(sc.Base.errOut(), sweeps, sc) // stdout is the JSON alone
	default:
		printKnees(sc.Base.out(), sweeps, sc)
	}
	if err := writeSweep(sc.Base, sum, cells, sweeps); err != nil {
		return err
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return nil
}

// sweepOne steps one strategy up to its first bad step, then bisects.
func sweepOne(ctx context.Context, sc SweepConfig, c RunConfig, l *lab.Lab) (capacity.Sweep, []measured, error) {
	sw := capacity.Sweep{Name: c.Name(), Op: sc.Op, SLOUS: float64(sc.SLO) / 1e3, Stepped: sc.By, Knee: -1}
	var cells []measured
	step := func(load float64) (bool, error) {
		s := c
		if sc.By == "rate" {
			s.Workload.Rate = load
		} else {
			s.Workload.Workers = int(load)
		}
		m, err := measureCell(ctx, s, l)
		if err != nil {
			return false, err
		}
		st := judgeStep(sc, s, m.Run)
		m.Run.Name = fmt.Sprintf("%s@%s=%g", sw.Name, sc.By, load)
		if !sc.Base.Quiet {
			fmt.Fprintf(sc.Base.errOut(), "step %s: %.0f cycles/s, %s p99 %.0f µs: %s\n", m.Run.Name, st.CyclesPerS, sc.Op, st.P99US, verdict(st))
		}
		cells = append(cells, m)
		sw.Steps = append(sw.Steps, st)
		// The knee is the highest load that held, whatever it achieved.
		if st.OK && (sw.Knee < 0 || load > loadOf(sc, sw.Steps[sw.Knee])) {
			sw.Knee = len(sw.Steps) - 1
		}
		return st.OK, nil
	}
	err := searchKnee(ctx, sc, step)
	return sw, cells, err
}

func printKnees(w io.Writer, sweeps []capacity.Sweep, sc SweepConfig) {
	fmt.Fprintf(w, "knee: highest load with %s p99 < %v and no errors\n", sc.Op, sc.SLO)
	t := results.NewTable(w, results.TableWidth)
	t.Header("strategy", "knee", "cycles/s", sc.Op+"\np99 µs", "note")
	for _, s := range sweeps {
		if len(s.Steps) == 0 {
			continue
		}
		if s.Knee < 0 {
			last := s.Steps[len(s.Steps)-1]
			_ = t.Append(s.Name, "none", "-", "-", fmt.Sprintf("every step failed, down to %s %g: %s", sc.By, loadOf(sc, last), last.Reason))
			continue
		}
		k := s.Steps[s.Knee]
		load := fmt.Sprintf("%.0f/s", k.Rate)
		if sc.By == "workers" {
			load = fmt.Sprintf("%d workers", k.Workers)
		}
		_ = t.Append(s.Name, load, fmt.Sprintf("%.0f", k.CyclesPerS), fmt.Sprintf("%.0f", k.P99US), "")
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}
		cfg.Row.Formatting.AutoWrap = tw.WrapNormal
	})
	_ = t.Render()
}

func writeSweep(cfg RunConfig, sum *results.Summary, cells []measured, sweeps []capacity.Sweep) error {
	if cfg.JSON != "" {
		if err := sum.WriteJSONTo(cfg.out(), cfg.JSON); err != nil {
			return fmt.Errorf("--json %q: %w", cfg.JSON, err)
		}
	}
	if cfg.Out == "" {
		return nil
	}
	if err := writeOutDir(cfg.Out, sum, cells); err != nil {
		return fmt.Errorf("--out %q: %w", cfg.Out, err)
	}
	b, err := json.MarshalIndent(sweeps, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(cfg.Out, "sweep.json"), append(b, '\n'))
}
