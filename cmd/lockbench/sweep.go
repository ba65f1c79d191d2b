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

func newSweepCmd() *cobra.Command {
	sc := SweepConfig{Config: sweep.DefaultConfig()}
	sc.Base, sc.Muxes = newRunConfig(sc.Config.Base), nil // nil: --mux
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Capacity planning: raise the load until p99 breaks the SLO; report the knee",
		Long:  sweep.Help,
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
