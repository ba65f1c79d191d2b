package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// SweepConfig is a capacity sweep as the CLI was told it. It is written
// into the summary: the CLI's cell (RunConfig's keys) as "base", the
// sweep's own keys beside it.
type SweepConfig struct {
	Base RunConfig `json:"base"` // shadows sweep.Config.Base, which run sets from it
	sweep.Config
}

func newSweepCmd() *cobra.Command {
	sc := SweepConfig{Config: sweep.DefaultConfig()}
	sc.Base = RunConfig{Config: sc.Config.Base}
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
	fs.StringVar((*string)(&sc.By), "by", string(sc.By), "what to step: rate (open loop, --workers fixed) | workers (closed loop)")
	fs.StringVar(&sc.Op, "op", sc.Op, "op whose p99 is held to --slo: "+strings.Join(sweep.Ops(), "|"))
	fs.DurationVar(&sc.SLO, "slo", sc.SLO, "p99 latency objective of --op")
	fs.Float64Var(&sc.Start, "start", sc.Start, "first step: cycles/s (--by rate) or workers (--by workers)")
	fs.Float64Var(&sc.Factor, "factor", sc.Factor, "each step multiplies the load by this")
	fs.IntVar(&sc.MaxSteps, "max-steps", sc.MaxSteps, "most steps per strategy before bisecting")
	fs.IntVar(&sc.Refine, "refine", sc.Refine, "bisection steps between the last good and first bad step")
	fs.Float64Var(&sc.MaxErrorRate, "max-error-rate", sc.MaxErrorRate, "share of attempts that may fail (errors, timeouts, failed releases) in a good step; 0: none")
	return cmd
}

// validate checks the flags before any server starts, naming the flag.
func (sc *SweepConfig) validate() error {
	// A flag's 0 is refused, or none for --refine and --max-error-rate
	// (library), where the library's zero is its default.
	switch {
	case sc.SLO == 0:
		return usagef("--slo 0s: must be positive")
	case sc.Start == 0:
		return usagef("--start 0: must be positive")
	case sc.Factor == 0:
		return usagef("--factor 0: must be more than 1")
	case sc.MaxSteps == 0:
		return usagef("--max-steps 0: must be at least 1")
	case sc.Refine < 0:
		return usagef("--refine %d: must not be negative", sc.Refine)
	case sc.MaxErrorRate < 0:
		return usagef("--max-error-rate %v: want a share in [0, 1)", sc.MaxErrorRate)
	}
	if len(sc.Muxes) == 0 {
		sc.Muxes = []string{sc.Base.Driver.Mux}
	}
	sc.Config.Base = sc.Base.Config
	if err := sc.Config.Validate(); err != nil {
		return fieldUsage(err)
	}
	first := sc.Base // the library checked each mux; the CLI's checks hold for the first step
	if sc.By == sweep.ByWorkers {
		first.Workload.Workers = int(sc.Start)
	}
	if err := first.validate(); err != nil {
		return err
	}
	err := sc.Base.validate()
	sc.Config.Base = sc.Base.Config
	return err
}

// library is the sweep for the library, whose zero Refine and
// MaxErrorRate are its defaults where the flags' (and the summary's) 0 is
// none.
func (sc *SweepConfig) library() sweep.Config {
	c := sc.Config
	if c.Refine == 0 {
		c.Refine = sweep.NoRefine
	}
	if c.MaxErrorRate == 0 {
		c.MaxErrorRate = sweep.NoErrors
	}
	return c
}

// runSweep brings the servers up once and sweeps each strategy on them.
func runSweep(ctx context.Context, sc SweepConfig) error {
	l, sum, closeLab, err := openLab(ctx, &sc.Base, sc)
	if err != nil {
		return err
	}
	defer closeLab()
	var obs sweep.Observers
	obs.Cell.Metrics = sc.Base.metrics // the step line stands for the progress line
	if !sc.Base.Quiet {
		obs.Step = func(run string, st capacity.Step) {
			fmt.Fprintln(sc.Base.errOut(), sweep.StepLine(run, sc.Op, st))
		}
	}
	res, err := sweep.Run(ctx, l, sc.library(), obs)
	if err != nil {
		return err
	}
	if len(res.Cells) == 0 && res.Interrupted {
		return errInterruptedEarly
	}
	res.AddTo(sum)
	w := sc.Base.writer(sc.Base.out())
	w.Print = func(out io.Writer, _ []results.Run) error { sweep.WriteKnees(out, res.Sweeps, sc.Config); return nil }
	w.Files = map[string]any{"sweep.json": res.Sweeps}
	if w.Format != output.Table || w.JSON == "-" {
		sweep.WriteKnees(sc.Base.errOut(), res.Sweeps, sc.Config) // stdout is the CSV, benchmark lines or JSON alone
	}
	if err := flagError(w.Write(sum, cellLogs(res.Cells))); err != nil {
		return err
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return nil
}
