package sweep

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Command is a capacity sweep as a command line gives it. It is written
// into the summary: the command's cell (lab.Run's keys) as "base", the
// sweep's own keys beside it. Its methods are the command's lifetime:
// Bind, Validate before any server starts, Measure.
type Command struct {
	Base lab.Run `json:"base"` // shadows Config.Base, which Validate sets from it
	Config
	flags *flagtag.Set
}

// NewCommand is the default sweep (DefaultConfig) with the CLI's defaults
// for its base run; no strategies: the base's --mux.
func NewCommand() Command {
	sc := Command{Config: DefaultConfig()}
	sc.Base, sc.Muxes = lab.NewRun(sc.Config.Base), nil // nil: --mux
	return sc
}

// Bind registers sweep's flags: the base of every step is run's flags but
// --fault and the peers', the sweep's own beside them.
func (sc *Command) Bind(fs *pflag.FlagSet) *flagtag.Set {
	sc.flags = lab.BindFlags(fs, &sc.Base, "faults", "driver.redsync").Bind(&sc.Config, "base")
	return sc.flags
}

// Validate checks the flags before any server starts, naming the flag.
func (sc *Command) Validate() error {
	if len(sc.Muxes) == 0 {
		sc.Muxes = []string{sc.Base.Driver.Mux}
	}
	sc.Config.Base = sc.Base.Config
	if _, err := sc.Config.Literal(); err != nil {
		return lab.BadInput(err, sc.flags)
	}
	err := sc.Base.Validate() // the library checked each mux's first step as a cell
	sc.Config.Base = sc.Base.Config
	return err
}

// Measure brings the servers up once and sweeps each strategy on them,
// then writes the steps measured (after Ctrl-C, those done).
func (sc Command) Measure(ctx context.Context) error {
	release, err := sc.Base.ClaimOut()
	if err != nil {
		return err
	}
	defer release()
	l, sum, closeLab, err := sc.Base.Open(ctx, sc)
	if err != nil {
		return err
	}
	defer closeLab()
	obs := Observers{Step: StepLines(sc.Base.PhaseLog(), sc.Op)}
	obs.Cell.Metrics = sc.Base.Metrics() // the step line stands for the progress line
	literal, _ := sc.Config.Literal()    // validated
	res, err := Run(ctx, l, literal, obs)
	if err != nil {
		return err
	}
	if len(res.Cells) == 0 && res.Interrupted {
		return exit.ErrInterruptedEarly
	}
	res.AddTo(sum)
	w := sc.Base.ResultWriter(sc.Base.Stdout(), sum.Runs)
	Table(&w, res, sc.Config, sc.Base.Stderr())
	if err := lab.OutputError(w.Write(sum, lab.Logs(res.Cells))); err != nil {
		return err
	}
	if sum.Interrupted {
		return exit.ErrInterrupted
	}
	return nil
}
