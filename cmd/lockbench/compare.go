package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// compareConfig is compare's flags: the library's Config with the CLI's
// base (whose allow_failures joins the summary's "base").
type compareConfig struct {
	compare.Config
	Base RunConfig `json:"base"`
	// CPUProfile, when set, receives a pprof CPU profile of lockbench
	// during the whole compare.
	CPUProfile string `json:"-" flag:"cpuprofile" value:"FILE" help:"write a pprof CPU profile of lockbench during the cells to FILE"`
	flags      *flagtag.Set
}

func newCompareCmd() *cobra.Command {
	def := compare.DefaultConfig()
	cc := compareConfig{Config: def, Base: newRunConfig(def.Base)}
	gen := generators.DefaultConfig()
	var genFlags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Measure a matrix of clients × strategies × workloads on the same servers",
		Long:  compare.Help,
		Example: `  lockbench compare
  lockbench compare --clients rueidis --muxes fanout,auto --workloads uncontended --workers 256
  lockbench compare --masters 1,3,5,7 --muxes sequential,fanout,pipeline --json scaling.json
  lockbench compare --ceiling --workloads uncontended
  lockbench compare --repeat 3 --workloads uncontended --json rounds.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cc.Base.setIO(cmd)
			plan, err := cc.plan(cmd)
			if err != nil {
				return err
			}
			if err := gen.CheckGiven(flagtag.Given(cmd.Flags())); err != nil {
				return fieldUsage(err, genFlags)
			}
			if err := gen.CheckCompare(plan); err != nil {
				return fieldUsage(err, genFlags, cc.flags)
			}
			if gen.On() {
				return runCompareGenerators(cmd.Context(), cmd.OutOrStdout(), cc, plan, gen)
			}
			return runCompare(cmd.Context(), cmd.OutOrStdout(), cc, plan)
		},
	}
	cc.flags = cc.bind(cmd.Flags())
	genFlags = flagtag.New(cmd.Flags()).Bind(&gen)
	for _, single := range []string{"client", "mux", "workload", "client-defaults"} {
		_ = cmd.Flags().MarkHidden(single) // compare takes the lists and --defaults-rows instead
	}
	return cmd
}

// bind registers compare's flags: each cell's are run's but --masters
// (compare's is a list) and --fault, compare's own beside them.
func (cc *compareConfig) bind(fs *pflag.FlagSet) *flagtag.Set {
	return bindRun(fs, &cc.Base, "topology.redis.masters", "faults").Bind(cc, "base")
}

// plan checks the flags and expands the matrix before any server starts;
// every cell also passes run's own checks (RunConfig.validate).
func (cc *compareConfig) plan(cmd *cobra.Command) (*compare.Plan, error) {
	given := flagtag.Given(cmd.Flags())
	cc.Config.Base = cc.Base.Config
	if err := cc.Config.CheckGiven(given); err != nil {
		return nil, fieldUsage(err, cc.flags)
	}
	if cc.CPUProfile == "-" {
		return nil, usagef("--cpuprofile -: want a file (stdout carries the table)")
	}
	if err := cc.Base.checkOutputs(cc.profilePath()...); err != nil {
		return nil, err
	}
	cc.Check = func(c *lab.Config) error {
		rc := cc.Base
		rc.Config = *c
		err := rc.validate()
		*c = rc.Config
		return err
	}
	p, err := compare.NewPlan(cc.Config)
	if err != nil {
		return nil, fieldUsage(err, cc.flags)
	}
	cc.Config, cc.Base.Config = p.Config, p.Config.Base
	if err := p.CheckGiven(given); err != nil {
		return nil, fieldUsage(err)
	}
	return p, nil
}

// runCompare measures the plan, then writes and prints what was measured:
// all of it, or after Ctrl-C the cells done (the one in progress kept with
// interrupted=true).
func runCompare(ctx context.Context, stdout io.Writer, cc compareConfig, p *compare.Plan) error {
	release, err := cc.Base.claimOut()
	if err != nil {
		return err
	}
	defer release()
	stopProfile, err := output.CPUProfile(cc.CPUProfile)
	if err != nil {
		return flagError(err)
	}
	defer stopProfile()
	stopMetrics, err := startMetrics(&cc.Base)
	if err != nil {
		return err
	}
	defer stopMetrics()
	res, runErr := p.Run(ctx, compareObservers(cc, p))
	sum, err := res.Summary(cc)
	if err != nil {
		return err
	}
	if len(sum.Runs) == 0 && sum.Interrupted {
		return errInterruptedEarly
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := flagError(res.Write(cc.Base.writer(stdout, sum.Runs), sum)); err != nil {
			return err
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case sum.Interrupted:
		return errInterrupted
	}
	return compareFailures(cc.Base.errOut(), cc.Base, sum.Runs)
}

// compareFailures judges each cell on its rounds together (counts
// totalled): one bad round among good ones is in the table, not a failed
// compare. Stalls are flagged per cell, not failed.
func compareFailures(w io.Writer, cfg RunConfig, runs []schema.Run) error {
	return checkFailures(w, cfg, stats.MedianRuns(runs), false)
}

// profilePath is --cpuprofile as an output of the call, when given.
func (cc *compareConfig) profilePath() []output.Path {
	if cc.CPUProfile == "" {
		return nil
	}
	return []output.Path{{Dest: "cpuprofile", Path: cc.CPUProfile}}
}

// compareObservers are the CLI's observers of p: phases and warnings on
// stderr, the metrics exporter, the progress line unless quiet.
func compareObservers(cc compareConfig, p *compare.Plan) compare.Observers {
	obs := compare.Observers{Log: cc.Base.log(), Metrics: cc.Base.metrics}
	if !cc.Base.Quiet {
		obs.Progress = output.NewProgress(cc.Base.errOut(), len(p.Cells)*p.Config.Repeat, cc.Base.Workload.Warmup+cc.Base.Workload.Duration, cc.Base.Verbose)
	}
	return obs
}
