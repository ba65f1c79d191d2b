package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/lab"
)

func init() { extraCommands = append(extraCommands, newCompareCmd) }

// CompareConfig is a matrix of cells measured on the same servers with the
// same durations. It is written into the summary.
type CompareConfig struct {
	Base      RunConfig `json:"base"`
	Clients   []string  `json:"clients"`
	Muxes     []string  `json:"muxes"`
	Workloads []string  `json:"workloads"`
	Masters   []int     `json:"masters"`
	Ceiling   bool      `json:"ceiling"`
	// RTTs reruns the matrix with each round trip added to every master
	// (0: direct); ranking shows how the order changes with distance.
	RTTs []time.Duration `json:"rtts,omitempty"`
	// ClientDefaults adds, beside every auto cell, the same cell with the
	// client libraries' own defaults (/defaults rows).
	ClientDefaults bool `json:"client_defaults_rows,omitempty"`
	// Baselines are rows beside the matrix: etcd modes and peer libraries.
	Baselines []string `json:"baselines,omitempty"`
	// CPUProfile, when set, receives a pprof CPU profile of lockbench
	// during the whole compare.
	CPUProfile string `json:"-"`
}

func newCompareCmd() *cobra.Command {
	cc := CompareConfig{
		Base:      defaultRunConfig(),
		Clients:   []string{"goredis", "rueidis"},
		Muxes:     []string{"sequential", "fanout", "pipeline", "auto"},
		Workloads: []string{"uncontended", "contended"},
		Masters:   []int{5},
	}
	cc.Base.Workload.Duration, cc.Base.Workload.Warmup = 5*time.Second, time.Second
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Measure a matrix of clients × strategies × workloads on the same servers",
		Long: `compare starts the masters once per --masters count and measures every
client × mux × workload cell on them with the same durations, one after the
other. It prints one table sorted by throughput, each row with its ratio to
the sequential row of the same client, workload and masters (and, with
--ceiling, its fraction of the redis-benchmark ceiling measured on the same
masters), and writes one summary JSON holding every run.`,
		Example: `  lockbench compare
  lockbench compare --clients rueidis --muxes fanout,auto --workloads uncontended --workers 256
  lockbench compare --masters 1,3,5,7 --muxes sequential,fanout,pipeline --json scaling.json
  lockbench compare --ceiling --workloads uncontended`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cells, err := cc.validate(cmd)
			if err != nil {
				return err
			}
			cc.Base.setIO(cmd)
			return runCompare(cmd.Context(), cc, cells)
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
	fs.StringSliceVar(&cc.Baselines, "baselines", nil, "rows beside the matrix, on the same servers and workloads: all or "+strings.Join(baselineNames(), ","))
	fs.BoolVar(&cc.Ceiling, "ceiling", false, "measure the redis-benchmark ceiling on the same masters and show each row's fraction of it")
	fs.DurationSliceVar(&cc.RTTs, "rtt", nil, "rerun the matrix with each round trip added to every master through a proxy, e.g. 0,250us,1ms, and rank the cells per round trip")
	_ = fs.MarkHidden("client-defaults") // a run flag; compare takes --defaults-rows
	fs.BoolVar(&cc.ClientDefaults, "defaults-rows", false, "add each auto cell again with the client libraries' own defaults (rows named .../auto/defaults)")
	return cmd
}

// compareCell is one cell's config and the masters count it runs on.
type compareCell struct {
	masters int
	cfg     RunConfig
}

// validate expands the matrix and checks every cell before any server starts.
func (cc *CompareConfig) validate(cmd *cobra.Command) ([]compareCell, error) {
	for single, list := range map[string]string{"client": "clients", "mux": "muxes", "workload": "workloads"} {
		if cmd.Flags().Changed(single) {
			return nil, usagef("--%s: compare takes --%s (a list)", single, list)
		}
	}
	for flag, list := range map[string][]string{"clients": cc.Clients, "muxes": cc.Muxes, "workloads": cc.Workloads} {
		if len(list) == 0 {
			return nil, usagef("--%s: empty list", flag)
		}
		if dup := duplicate(list); dup != "" {
			return nil, usagef("--%s %q: listed twice", flag, dup)
		}
	}
	if cc.CPUProfile != "" {
		if err := checkFile(cc.CPUProfile); err != nil {
			return nil, usagef("--cpuprofile %q: %v", cc.CPUProfile, err)
		}
	}
	if len(cc.Masters) == 0 {
		return nil, usagef("--masters: empty list")
	}
	seen := map[int]bool{}
	for _, m := range cc.Masters {
		if m < 1 {
			return nil, usagef("--masters %d: must be at least 1", m)
		}
		if seen[m] {
			return nil, usagef("--masters %d: listed twice", m)
		}
		seen[m] = true
	}
	if len(cc.Base.Topology.RedisAddrs) > 0 && cmd.Flags().Changed("masters") {
		return nil, usagef("--masters: not with --redis (the external masters are the topology)")
	}
	rtts, err := cc.rtts()
	if err != nil {
		return nil, err
	}
	var cells []compareCell
	for _, m := range cc.Masters {
		for _, rtt := range rtts {
			for _, w := range cc.Workloads {
				for _, c := range cc.Clients {
					for _, x := range cc.Muxes {
						cfg := cc.Base
						cfg.Topology.Redis.Masters = m
						cfg.Driver.Client, cfg.Driver.Mux, cfg.Workload.Workload, cfg.RTT = c, x, w, rtt
						if err := cfg.validate(); err != nil {
							return nil, err
						}
						cells = append(cells, compareCell{masters: cfg.Topology.Redis.Masters, cfg: cfg})
						if x == "auto" && cc.ClientDefaults {
							cfg.Driver.Tuning.LibraryDefaults = true
							cells = append(cells, compareCell{masters: cfg.Topology.Redis.Masters, cfg: cfg})
						}
					}
				}
			}
		}
	}
	cells, err = cc.withBaselines(cells)
	if err != nil {
		return nil, err
	}
	if len(cc.Base.Topology.RedisAddrs) > 0 {
		cc.Masters = []int{len(cells[0].cfg.Topology.RedisAddrs)}
		cc.Base.Topology.RedisAddrs = cells[0].cfg.Topology.RedisAddrs
		cc.Base.Topology.RedisMasters = cells[0].cfg.Topology.RedisMasters
	}
	return cells, nil
}

func duplicate(list []string) string {
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			return s
		}
		seen[s] = true
	}
	return ""
}

// runCompare brings each masters count's topology up once and measures its
// cells on it. Ctrl-C stops after the cell in progress, which is kept with
// interrupted=true, and writes everything measured so far.
func runCompare(ctx context.Context, cc CompareConfig, cells []compareCell) error {
	started := time.Now()
	sum, err := results.NewSummary(started, cc)
	if err != nil {
		return err
	}
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
	prog := newProgress(cc.Base.errOut(), len(cells), cc.Base.Workload.Warmup+cc.Base.Workload.Duration)
	var (
		done     []measured
		ceilings = map[int]float64{}
		// ceilingCosts: the ceiling's own cost per cycle, per masters count
		ceilingCosts = map[int]*results.Cost{}
		runErr       error
		l            *lab.Lab
		topoFor      = -1
	)
	closeTopo := func() {
		if l != nil {
			_ = l.Close()
			l = nil
		}
	}
	defer closeTopo()
	for i, cell := range cells {
		if ctx.Err() != nil {
			break
		}
		// Each cell gets its own keys: a lock a previous cell left held (a
		// release that timed out) would otherwise block a contended cell's
		// hot key for up to --ttl.
		cell.cfg.Workload.Prefix = fmt.Sprintf("%s:c%d", cell.cfg.Workload.Prefix, i)
		cell.cfg.metrics, cell.cfg.progress = cc.Base.metrics, prog
		if cell.masters != topoFor {
			closeTopo()
			spec := cell.cfg.Topology
			if l, runErr = upLab(ctx, spec, &cell.cfg); runErr != nil {
				break
			}
			topoFor = cell.masters
			withLab(ctx, sum, l, &cc.Base)
			if cc.Ceiling {
				server, closeServer := l.ServerCPU()
				c, cost, err := measureCeiling(ctx, l.Topo.Masters, cc.Base.Topology.RedisAuth.TLS, cell.cfg.Driver.Redlock.TTL, cell.cfg.Quiet, server, cc.Base.errOut())
				closeServer()
				if err != nil {
					runErr = fmt.Errorf("--ceiling: %w", err)
					break
				}
				ceilings[cell.masters] = c
				ceilingCosts[cell.masters] = cost
			}
		}
		m, err := measureCell(ctx, cell.cfg, l)
		if err != nil {
			runErr = fmt.Errorf("%s: %w", cell.cfg.Name(), err)
			break
		}
		if len(cc.Masters) > 1 {
			m.Run.Name = fmt.Sprintf("%s/%dm", m.Run.Name, cell.masters)
		}
		if len(cc.RTTs) > 0 {
			m.Run.Name = fmt.Sprintf("%s/rtt=%v", m.Run.Name, cell.cfg.RTT)
		}
		done = append(done, m)
	}
	closeTopo()
	if ctx.Err() != nil && runErr != nil {
		runErr = nil // a shutdown, not a failure
	}
	sum.Interrupted = ctx.Err() != nil
	sum.Runs = compareRuns(done, ceilings)
	for i := range sum.Runs {
		if c := ceilingCosts[sum.Runs[i].Masters]; c != nil {
			sum.Runs[i].CeilingCost = c
		}
	}
	if len(sum.Runs) == 0 && sum.Interrupted {
		return errInterruptedEarly
	}
	if len(sum.Runs) > 0 || runErr == nil {
		if err := writeCompare(cc.Base, sum, done, ceilings); err != nil {
			return err
		}
		if cc.Base.Format != "gobench" && cc.Base.JSON != "-" {
			printRanking(cc.Base.out(), sum.Runs, cc.RTTs)
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

// compareRuns sorts the runs by throughput and adds each one's ratio to its
// sequential baseline (and its fraction of the ceiling).
func compareRuns(done []measured, ceilings map[int]float64) []results.Run {
	runs := make([]results.Run, len(done))
	base := map[string]float64{}
	for i, m := range done {
		runs[i] = m.Run
		if m.Run.Mux == "sequential" {
			base[baselineKey(m.Run)] = m.Run.Throughput.CyclesPerS
		}
	}
	for i := range runs {
		r := &runs[i]
		if b := base[baselineKey(*r)]; b > 0 {
			v := r.Throughput.CyclesPerS / b
			r.VsSequential = &v
		}
		if c := ceilings[r.Masters]; c > 0 {
			of := r.Throughput.CyclesPerS / c
			r.CeilingCyclesPerS, r.OfCeiling = &c, &of
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Throughput.CyclesPerS > runs[j].Throughput.CyclesPerS })
	return runs
}

// baselineKey groups a run with the sequential row it is compared to.
func baselineKey(r results.Run) string {
	return strings.Join([]string{r.Backend, r.Client, r.Workload, fmt.Sprint(r.Masters, r.Workers, r.AddedRTTUS)}, "/")
}
