package compare

import (
	"context"
	"io"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Command is a compare as a command line gives it: the Config with the
// command's base run (whose allow_failures joins the summary's "base") and
// a CPU profile. Its methods are the command's lifetime: Bind, Plan
// before any server starts, Measure.
type Command struct {
	Config
	Base lab.Run `json:"base"`
	// CPUProfile, when set, receives a pprof CPU profile of lockbench
	// during the whole compare.
	CPUProfile string `json:"-" flag:"cpuprofile" value:"FILE" help:"write a pprof CPU profile of lockbench during the cells to FILE"`
	flags      *flagtag.Set
}

// NewCommand is the default compare (DefaultConfig) with the CLI's
// defaults for its base run.
func NewCommand() Command {
	def := DefaultConfig()
	return Command{Config: def, Base: lab.NewRun(def.Base)}
}

// Bind registers compare's flags: each cell's are run's but --masters
// (compare's is a list) and --fault, compare's own beside them.
func (cc *Command) Bind(fs *pflag.FlagSet) *flagtag.Set {
	cc.flags = lab.BindFlags(fs, &cc.Base, "topology.redis.masters", "faults").Bind(cc, "base")
	return cc.flags
}

// Flags are the flags Bind registered.
func (cc *Command) Flags() *flagtag.Set { return cc.flags }

// Plan checks the flags (given: those set) and expands the matrix
// before any server starts; every cell also passes run's own checks
// (lab.Run.Validate). Its errors are bad input naming the flag.
func (cc *Command) Plan(given []string) (*Plan, error) {
	cc.Config.Base = cc.Base.Config
	if err := cc.Config.CheckGiven(given); err != nil {
		return nil, lab.BadInput(err, cc.flags)
	}
	if cc.CPUProfile == "-" {
		return nil, exit.Usagef("--cpuprofile -: want a file (stdout carries the table)")
	}
	if err := cc.Base.CheckOutputs(cc.profilePath()...); err != nil {
		return nil, err
	}
	cc.Check = func(c *lab.Config) error {
		rc := cc.Base
		rc.Config = *c
		err := rc.Validate()
		*c = rc.Config
		return err
	}
	p, err := NewPlan(cc.Config)
	if err != nil {
		return nil, lab.BadInput(err, cc.flags)
	}
	cc.Config, cc.Base.Config = p.Config, p.Config.Base
	if err := p.CheckGiven(given); err != nil {
		return nil, lab.BadInput(err)
	}
	return p, nil
}

// profilePath is --cpuprofile as an output of the call, when given.
func (cc *Command) profilePath() []output.Path {
	if cc.CPUProfile == "" {
		return nil
	}
	return []output.Path{{Dest: "cpuprofile", Path: cc.CPUProfile}}
}

// Measure measures the plan, then writes and prints what was measured:
// all of it, or after Ctrl-C the cells done (the one in progress kept with
// interrupted=true); then judges the cells' failures (CheckFailures).
func (cc Command) Measure(ctx context.Context, stdout io.Writer, p *Plan) error {
	release, err := cc.Base.ClaimOut()
	if err != nil {
		return err
	}
	defer release()
	stopProfile, err := output.CPUProfile(cc.CPUProfile)
	if err != nil {
		return lab.OutputError(err)
	}
	defer stopProfile()
	stopMetrics, err := cc.Base.StartMetrics()
	if err != nil {
		return err
	}
	defer stopMetrics()
	res, runErr := p.Run(ctx, cc.Observers(p))
	sum, err := res.Summary(cc)
	if err != nil {
		return err
	}
	if len(sum.Runs) == 0 && sum.Interrupted {
		return exit.ErrInterruptedEarly
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := lab.OutputError(res.Write(cc.Base.ResultWriter(stdout, sum.Runs), sum)); err != nil {
			return err
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case sum.Interrupted:
		return exit.ErrInterrupted
	}
	return cc.CheckFailures(sum.Runs)
}

// CheckFailures judges each cell on its rounds together (counts
// totalled): one bad round among good ones is in the table, not a failed
// compare. Stalls are flagged per cell, not failed.
func (cc *Command) CheckFailures(runs []schema.Run) error {
	return cc.Base.CheckFailures(stats.MedianRuns(runs), false)
}

// Observers are a command's observers of p: phases and warnings on
// stderr, the metrics exporter, the progress line unless quiet.
func (cc *Command) Observers(p *Plan) Observers {
	obs := Observers{Log: cc.Base.PhaseLog(), Metrics: cc.Base.Metrics()}
	if !cc.Base.Quiet {
		obs.Progress = output.NewProgress(cc.Base.Stderr(), len(p.Cells)*p.Config.Repeat, cc.Base.Workload.Warmup+cc.Base.Workload.Duration, cc.Base.Verbose)
	}
	return obs
}
