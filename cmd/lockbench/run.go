package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// runHelp is what measuring one cell does, in the words of the flags of
// lab.Config: lockbench run's help.
const runHelp = `run starts the servers it needs (or dials --redis), drives lock cycles for
--warmup + --duration, prints a progress line each second and a table at the
end, and writes the summary JSON (--json) and interval logs (--out).`

// rttHelp is run's --rtt help (lab.Config.RTTFlag).
const rttHelp = "round trip added to every master by a delay line in a process of its own, e.g. 1ms or 1ms±100us (jitter)"

func newRunCmd() *cobra.Command {
	cfg := lab.DefaultRun()
	gen := generators.DefaultConfig()
	var genFlags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one backend/client/strategy/workload cell and report its latencies",
		Long:  runHelp,
		Example: `  lockbench run
  lockbench run --client rueidis --mux auto --workload contended --keys 4 --json out.json
  lockbench run --rate 20000 --workers 128 --duration 30s --out runs/open
  lockbench run --redis 10.0.0.1:6379,10.0.0.2:6379,10.0.0.3:6379 --duration 1m
  lockbench run --backend etcd --etcd-members 3 --workload contended
  lockbench run --fault kill:masters=3:at=5s:restart=delayed:delay=ttl+1s --ttl 2s
  lockbench run --fault stop:masters=1:at=5s:for=2s
  lockbench run --fault latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s
  lockbench run --fault partition:masters=1,2:at=5s:for=3s --fault reset:masters=4:at=9s
  lockbench run --fault pause-client:workers=1:at=2s:for=ttl+1s --ttl 1s --workload contended
  lockbench run --fault clock-jump:masters=2:+5s:at=2s:for=3s`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg.SetIO(cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err := cfg.Validate(); err != nil {
				return err
			}
			if err := cfg.CheckGiven(flagtag.Given(cmd.Flags())); err != nil {
				return lab.BadInput(err) // a flag for runs it applies to none of
			}
			if err := gen.CheckFlags(cfg.Config, genFlags); err != nil {
				return err
			}
			if gen.On() {
				return generators.MeasureRun(cmd.Context(), cfg, gen)
			}
			return cfg.Measure(cmd.Context())
		},
	}
	lab.BindFlags(cmd.Flags(), &cfg)
	cmd.Flags().Var(cfg.RTTFlag(), "rtt", rttHelp)
	genFlags = flagtag.New(cmd.Flags()).Bind(&gen)
	return cmd
}
