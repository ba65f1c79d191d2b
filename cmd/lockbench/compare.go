package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// compareConfig is compare's flags: the library's Config with the CLI's
// base (whose allow_failures joins the summary's "base").
type compareConfig struct {
	compare.Config
	Base RunConfig `json:"base"`
	// CPUProfile, when set, receives a pprof CPU profile of lockbench
	// during the whole compare.
	CPUProfile string `json:"-"`
}

func newCompareCmd() *cobra.Command {
	def := compare.DefaultConfig()
	cc := compareConfig{Config: def, Base: RunConfig{Config: def.Base}}
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Measure a matrix of clients × strategies × workloads on the same servers",
		Long: `compare starts the masters once per --masters count and measures every
client × mux × workload cell on them with the same durations, one after the
other. It prints one table sorted by throughput, each row with its ratio to
the sequential row of the same client, workload and masters (and, with
--ceiling, its fraction of the redis-benchmark ceiling measured on the same
masters), and writes one summary JSON holding every run. With --repeat N
it measures the matrix in N rounds on the same servers (the order
alternating between rounds) and shows each cell's median and spread.`,
		Example: `  lockbench compare
  lockbench compare --clients rueidis --muxes fanout,auto --workloads uncontended --workers 256
  lockbench compare --masters 1,3,5,7 --muxes sequential,fanout,pipeline --json scaling.json
  lockbench compare --ceiling --workloads uncontended
  lockbench compare --repeat 3 --workloads uncontended --json rounds.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			plan, err := cc.plan(cmd)
			if err != nil {
				return err
			}
			cc.Base.setIO(cmd)
			return runCompare(cmd.Context(), cmd.OutOrStdout(), cc, plan)
		},
	}
	fs := cmd.Flags()
	bindDriver(fs, &cc.Base)
	bindWorkload(fs, &cc.Base)
	bindOutput(fs, &cc.Base)
	bindDisplay(fs, &cc.Base)
	fs.Var(redisList{&cc.Base.Topology.RedisAddrs}, "redis", redisHelp)
	bindRedisAuth(fs, &cc.Base)
	fs.StringVar(&cc.Base.Topology.Redis.Persistence, "persistence", cc.Base.Topology.Redis.Persistence, "local masters' persistence: none|everysec|always (AOF fsync)")
	fs.StringSliceVar(&cc.Clients, "clients", cc.Clients, "Redis client libraries to compare")
	fs.StringSliceVar(&cc.Muxes, "muxes", cc.Muxes, "strategies to compare (sequential is the ratio baseline)")
	fs.StringSliceVar(&cc.Workloads, "workloads", cc.Workloads, "workloads to compare")
	fs.IntSliceVar(&cc.Masters, "masters", cc.Masters, "local master counts; the masters are restarted for each count")
	for _, single := range []string{"client", "mux", "workload"} {
		_ = fs.MarkHidden(single) // compare takes the lists instead
	}
	fs.StringVar(&cc.CPUProfile, "cpuprofile", "", "write a pprof CPU profile of lockbench during the cells to FILE")
	bindEtcd(fs, &cc.Base)
	bindPeers(fs, &cc.Base)
	bindBackends(fs, &cc.Base)
	fs.StringSliceVar(&cc.Baselines, "baselines", nil, "rows beside the matrix, on the same servers and workloads: all or "+strings.Join(compare.BaselineNames(), ","))
	fs.IntVar(&cc.Repeat, "repeat", cc.Repeat, "measure the matrix N times in alternating order; rows show medians, the JSON every round")
	fs.BoolVar(&cc.Ceiling, "ceiling", false, "measure the redis-benchmark ceiling on the same masters and show each row's fraction of it")
	fs.DurationSliceVar(&cc.RTTs, "rtt", nil, "rerun the matrix with each round trip added to every master through a proxy, e.g. 0,250us,1ms, and rank the cells per round trip")
	_ = fs.MarkHidden("client-defaults") // a run flag; compare takes --defaults-rows
	fs.BoolVar(&cc.ClientDefaults, "defaults-rows", false, "add each auto cell again with the client libraries' own defaults (rows named .../auto/defaults)")
	return cmd
}

// compareFlags name the flag of each compare.Config field.
var compareFlags = map[string]string{
	"Clients": "--clients", "Muxes": "--muxes", "Workloads": "--workloads", "Masters": "--masters",
	"RTTs": "--rtt", "Baselines": "--baselines", "Base.Driver.Backend": "--backend",
	"Base.Topology.Etcd.Members": "--etcd-members", "Repeat": "--repeat",
}

// plan checks the flags and expands the matrix before any server starts;
// every cell also passes run's own checks (RunConfig.validate).
func (cc *compareConfig) plan(cmd *cobra.Command) (*compare.Plan, error) {
	for single, list := range map[string]string{"client": "clients", "mux": "muxes", "workload": "workloads"} {
		if cmd.Flags().Changed(single) {
			return nil, usagef("--%s: compare takes --%s (a list)", single, list)
		}
	}
	for flag, empty := range map[string]bool{"clients": len(cc.Clients) == 0, "muxes": len(cc.Muxes) == 0,
		"workloads": len(cc.Workloads) == 0, "masters": len(cc.Masters) == 0} {
		if empty { // an empty list given on purpose, not the library's default
			return nil, usagef("--%s: empty list", flag)
		}
	}
	if cc.CPUProfile != "" {
		if err := checkFile(cc.CPUProfile); err != nil {
			return nil, usagef("--cpuprofile %q: %v", cc.CPUProfile, err)
		}
	}
	if cc.Repeat == 0 { // the library's zero value is its default, 1
		return nil, usagef("--repeat 0: must be at least 1")
	}
	if len(cc.Base.Topology.RedisAddrs) > 0 && cmd.Flags().Changed("masters") {
		return nil, usagef("--masters: not with --redis (the external masters are the topology)")
	}
	cc.Config.Base = cc.Base.Config
	cc.Check = func(c *lab.Config) error {
		rc := cc.Base
		rc.Config = *c
		err := rc.validate()
		*c = rc.Config
		return err
	}
	p, err := compare.NewPlan(cc.Config)
	if err != nil {
		var fe *compare.FieldError
		if errors.As(err, &fe) && compareFlags[fe.Field] != "" {
			return nil, usagef("%s", fe.Name(func(f string) string { return compareFlags[f] }))
		}
		if errors.As(err, new(usageError)) {
			return nil, err
		}
		return nil, usageError{err}
	}
	cc.Config, cc.Base.Config = p.Config, p.Config.Base
	return p, nil
}

// runCompare measures the plan, then writes and prints what was measured:
// all of it, or after Ctrl-C the cells done (the one in progress kept with
// interrupted=true).
func runCompare(ctx context.Context, stdout io.Writer, cc compareConfig, p *compare.Plan) error {
	stopProfile, err := startCPUProfile(cc.CPUProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	stopMetrics, err := startMetrics(&cc.Base)
	if err != nil {
		return err
	}
	defer stopMetrics()
	obs := compare.Observers{Log: cc.Base.log(), Metrics: cc.Base.metrics}
	if !cc.Base.Quiet {
		obs.Progress = output.NewProgress(cc.Base.errOut(), len(p.Cells)*p.Config.Repeat, cc.Base.Workload.Warmup+cc.Base.Workload.Duration)
	}
	res, runErr := p.Run(ctx, obs)
	sum, err := res.Summary(cc)
	if err != nil {
		return err
	}
	if len(sum.Runs) == 0 && sum.Interrupted {
		return errInterruptedEarly
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := writeCompare(stdout, cc.Base, sum, res.Cells, res.CeilingRates()); err != nil {
			return err
		}
		if cc.Base.Format != "gobench" && cc.Base.JSON != "-" {
			compare.WriteRankings(stdout, compare.Rankings(sum.Runs, cc.RTTs))
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case sum.Interrupted:
		return errInterrupted
	}
	return checkFailures(cc.Base.errOut(), cc.Base, sum.Runs)
}
