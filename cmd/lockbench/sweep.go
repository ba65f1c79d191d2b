package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// SweepConfig is a capacity sweep as the CLI was told it. It is written
// into the summary: the CLI's cell (RunConfig's keys) as "base", the
// sweep's own keys beside it.
type SweepConfig struct {
	Base RunConfig `json:"base"` // shadows sweep.Config.Base, which run sets from it
	sweep.Config
	flags *flagtag.Set
}

// sweepHelp is how a sweep steps, stops and finds its knee, in the words
// of its flags (the tags of sweep.Config): lockbench sweep's help.
const sweepHelp = `sweep measures each --muxes strategy at increasing load on the same servers:
with --by rate (default) an open-loop schedule of --start cycles/s times
--factor each step, run by --workers (latency from the intended start, so
queueing shows: the knee is an arrival rate you can offer); with --by
workers a closed loop of --start workers times --factor (latency from the
actual start: the knee is a concurrency, its cycles/s what it achieved,
more than an open loop sustains at the same SLO).

A step fails when its p99 of --op exceeds --slo, or its errors and timeouts
exceed --max-error-rate, or it has violations, or (open loop) it falls 10 %
short of its rate. The climb measures each step once; a step that fails is
measured --repeat times and judged on the medians (p99, cycles/s), so one
noisy measurement does not end the climb. The step below a confirmed
failure is confirmed the same way (a failing one steps down until one
holds); then --refine bisection steps, each judged on --repeat
measurements. A step that fails on p99 alone ends the climb only when the
step above it fails too: one burst of host noise at a low step does not.
The knee is the highest load that held. Then the step below it, the knee
and the first bad step are measured again in --interval-rounds interleaved
rounds: each round's knee is the highest of them that met the SLO, and
knee_interval spans where the rounds put it (wider, with the reason, where
a step's rounds disagree): where a rerun's knee lands. safe_rate is the
highest load at which every measurement met the SLO: the rate to promise.
With --by workers the Universal Scalability Law is fitted to the measured
throughput (λ, σ, κ, the peak concurrency, R²); --target-rate R turns the
measured CPU per cycle into the cores a rate of R needs. Every measurement
uses keys of its own.

--out DIR writes every step's summary and .hlog files plus sweep.json; run
'lockbench report DIR' for the latency-vs-throughput plot.`

func newSweepCmd() *cobra.Command {
	sc := SweepConfig{Config: sweep.DefaultConfig()}
	sc.Base, sc.Muxes = newRunConfig(sc.Config.Base), nil // nil: --mux
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Capacity planning: raise the load until p99 breaks the SLO; report the knee",
		Long:  sweepHelp,
		Example: `  lockbench sweep --slo 2ms
  lockbench sweep --muxes sequential,fanout,pipeline --client rueidis --slo 5ms --out sweep/
  lockbench sweep --by workers --start 1 --factor 2 --slo 1ms`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc.Base.setIO(cmd)
			if err := sc.validate(); err != nil {
				return err
			}
			return runSweep(cmd.Context(), sc)
		},
	}
	sc.flags = sc.bind(cmd.Flags())
	return cmd
}

// bind registers sweep's flags: the base of every step is run's flags but
// --fault and the peers', the sweep's own beside them.
func (sc *SweepConfig) bind(fs *pflag.FlagSet) *flagtag.Set {
	return bindRun(fs, &sc.Base, "faults", "driver.redsync").Bind(&sc.Config, "base")
}

// validate checks the flags before any server starts, naming the flag.
func (sc *SweepConfig) validate() error {
	if len(sc.Muxes) == 0 {
		sc.Muxes = []string{sc.Base.Driver.Mux}
	}
	sc.Config.Base = sc.Base.Config
	if _, err := sc.Config.Literal(); err != nil {
		return fieldUsage(err, sc.flags)
	}
	err := sc.Base.validate() // the library checked each mux's first step as a cell
	sc.Config.Base = sc.Base.Config
	return err
}

// runSweep brings the servers up once and sweeps each strategy on them.
func runSweep(ctx context.Context, sc SweepConfig) error {
	release, err := sc.Base.claimOut()
	if err != nil {
		return err
	}
	defer release()
	l, sum, closeLab, err := openLab(ctx, &sc.Base, sc)
	if err != nil {
		return err
	}
	defer closeLab()
	obs := sweep.Observers{Step: sweep.StepLines(sc.Base.log(), sc.Op)}
	obs.Cell.Metrics = sc.Base.metrics // the step line stands for the progress line
	literal, _ := sc.Config.Literal()  // validated
	res, err := sweep.Run(ctx, l, literal, obs)
	if err != nil {
		return err
	}
	if len(res.Cells) == 0 && res.Interrupted {
		return errInterruptedEarly
	}
	res.AddTo(sum)
	w := sc.Base.writer(sc.Base.out(), sum.Runs)
	sweep.Table(&w, res, sc.Config, sc.Base.errOut())
	if err := flagError(w.Write(sum, lab.Logs(res.Cells))); err != nil {
		return err
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return nil
}
