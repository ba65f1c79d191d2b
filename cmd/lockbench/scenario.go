package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/lab"
)

// scenario is one named, documented experiment from the Redlock debate: a
// run configuration, the faults played in it, and what should come out.
type scenario struct {
	name, about string
	expect      string // the expected outcome, in words
	setup       func(*RunConfig)
	judge       func(o scenarioOutcome) bool
}

// scenarioOutcome is what a scenario measured.
type scenarioOutcome = results.ScenarioOutcome

// base is what every scenario shares: 5 local masters without persistence,
// a few hot keys, no warmup (faults are timed from the start of the load).
func base(c *RunConfig) {
	c.Topology.Redis.Masters = 5
	c.Topology.Redis.Persistence = "none"
	c.Workload.Workload = "contended"
	c.Workload.Warmup = 0
	c.Workload.RetryDelay = 5 * time.Millisecond
	c.Workload.Tries = 1000
	c.Quiet = true
}

var scenarios = []scenario{
	{
		name:   "minority-down",
		about:  "2 of 5 masters crash at 2s and stay down: a quorum of 3 remains.",
		expect: "available throughout, 0 violations",
		setup: func(c *RunConfig) {
			c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 4, 8, 10*time.Millisecond, 5*time.Second
			c.Driver.Redlock.TTL = time.Second
			c.Faults = []string{"kill:masters=1,2:at=2s:restart=never"}
		},
		judge: func(o scenarioOutcome) bool { return o.Violations == 0 && o.ZeroSeconds == 0 },
	},
	{
		name:   "majority-down",
		about:  "3 of 5 masters crash at 2s and come back empty 2s later (after the 1s TTL).",
		expect: "unavailable while down, 0 violations, recovers",
		setup: func(c *RunConfig) {
			c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 4, 8, 10*time.Millisecond, 6*time.Second
			c.Driver.Redlock.TTL = time.Second
			c.Faults = []string{"kill:masters=1,2,3:at=2s:restart=delayed:delay=2s"}
		},
		judge: func(o scenarioOutcome) bool {
			return o.Violations == 0 && o.LongestOutageMS >= 1000 && o.RecoveryMS >= 0
		},
	},
	{
		name: "restart-no-persistence",
		about: "A majority (3 of 5) crashes while a holder is inside its 1s critical section and restarts at once " +
			"without persistence (twice: at 1.5s and 4.5s): the key is gone from a quorum and another worker wins it.",
		expect: "violations > 0",
		setup:  restartSetup("restart=immediate", "1500ms", "4500ms"),
		judge:  func(o scenarioOutcome) bool { return o.Violations > 0 },
	},
	{
		name: "restart-no-persistence-delayed",
		about: "The same crash of 3 of 5 masters at 1.5s, but they restart only after ttl+1s (antirez's delayed " +
			"restart): every lease granted before the crash has expired by then.",
		expect: "0 violations (unavailable while a majority is down)",
		setup:  restartSetup("restart=delayed:delay=ttl+1s", "1500ms"),
		judge:  func(o scenarioOutcome) bool { return o.Violations == 0 },
	},
	{
		name: "clock-jump",
		about: "Kleppmann's example: a holder takes the key on masters 1-3 while 4 and 5 are down; they come back " +
			"empty, then master 3's wall clock jumps ahead by the 3s TTL: its copy expires and a contender wins " +
			"3, 4, 5 inside the holder's validity.",
		expect: "violations > 0",
		setup:  clockJumpSetup("+3s"),
		judge:  func(o scenarioOutcome) bool { return o.Violations > 0 },
	},
	{
		name: "clock-jump-within-drift",
		about: "The same, but master 3's clock jumps by only 10ms, inside Redlock's drift allowance " +
			"(1% of the TTL + 2ms = 32ms): the holder's validity ends before the early expiry.",
		expect: "0 violations",
		setup:  clockJumpSetup("+10ms"),
		judge:  func(o scenarioOutcome) bool { return o.Violations == 0 },
	},
}

// clockJumpSetup is Kleppmann's clock example. Masters 4 and 5 are down
// (killed at 0, back empty at 0.5s) while a holder takes the key on 1, 2 and
// 3 for its whole 3s TTL; at 2s master 3's wall clock jumps by jump (see
// compose/clockshift). A jump past the TTL expires master 3's copy at once
// and a contender wins 3, 4 and 5 inside the holder's validity; a jump
// inside the drift allowance expires it only after the validity ended. The
// 1.5s between restart and jump leave go-redis time to redial the restarted
// masters (its pool retries a failed dial once a second).
func clockJumpSetup(jump string) func(*RunConfig) {
	return func(c *RunConfig) {
		// One contender: several would split masters 3-5 between them
		// round after round (split-brain retries), blurring the effect.
		c.Workload.Keys, c.Workload.Workers, c.Workload.Duration = 1, 2, 4*time.Second
		c.Driver.Redlock.TTL = 3 * time.Second
		c.Workload.Hold = c.Driver.Redlock.TTL
		c.Faults = []string{"kill:masters=4,5:at=0s:restart=delayed:delay=500ms", "clock-jump:masters=3:" + jump + ":at=2s"}
	}
}

// restartSetup: one hot key, long holds, so a crash almost surely hits a
// holder with most of its validity left; two crashes, so one holder that
// happens to release at once does not hide the effect.
func restartSetup(restart string, at ...string) func(*RunConfig) {
	return func(c *RunConfig) {
		c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 1, 4, time.Second, 7*time.Second
		c.Driver.Redlock.TTL = 2 * time.Second
		for _, a := range at {
			c.Faults = append(c.Faults, "kill:masters=1,2,3:at="+a+":"+restart)
		}
	}
}

func scenarioNames() []string {
	var out []string
	for _, s := range scenarios {
		out = append(out, s.name)
	}
	return out
}

func newScenarioCmd() *cobra.Command {
	var jsonPath, metricsAddr string
	cmd := &cobra.Command{
		Use:   "scenario NAME|all",
		Short: "Run a named Redlock failure scenario and print measured vs expected",
		Long: "scenario runs a documented experiment from the Redlock debate against 5 local masters and prints\n" +
			"violations (from the referee), availability before/during/after the fault and recovery time next to\n" +
			"the expected outcome. Scenarios:\n\n" + scenarioHelp(),
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprint(cmd.OutOrStdout(), scenarioHelp())
				return nil
			}
			var run []scenario
			for _, s := range scenarios {
				if args[0] == "all" || args[0] == s.name {
					run = append(run, s)
				}
			}
			pause := args[0] == "client-pause" || args[0] == "all"
			failover := pickFailover(args[0])
			if len(run) == 0 && !pause && len(failover) == 0 {
				return usagef("scenario %q: unknown (have %s, %s, client-pause, all)", args[0], strings.Join(scenarioNames(), ", "), strings.Join(failoverNames(), ", "))
			}
			if jsonPath != "" {
				if err := checkOutputFile("--json", jsonPath); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if jsonPath == "-" {
				out = cmd.ErrOrStderr() // stdout is the JSON alone
			}
			metrics := RunConfig{MetricsAddr: metricsAddr}
			stopMetrics, err := startMetrics(&metrics)
			if err != nil {
				return err
			}
			defer stopMetrics()
			started := time.Now()
			var runs []results.Run
			if len(run) > 0 {
				runs, err = runScenarios(cmd.Context(), out, cmd.ErrOrStderr(), run, metrics.metrics)
			}
			if len(failover) > 0 && (err == nil || errors.As(err, new(exitError))) {
				if len(run) > 0 {
					fmt.Fprintln(out)
				}
				fruns, ferr := runFailover(cmd.Context(), out, cmd.ErrOrStderr(), failover)
				runs, err = append(runs, fruns...), errors.Join(err, ferr)
			}
			// The JSON holds every row measured, also one whose outcome
			// differs from the expected (exit 1), never a half-run.
			if jsonPath != "" && len(runs) > 0 && (err == nil || errors.As(err, new(exitError))) {
				if werr := writeScenarioJSON(cmd.OutOrStdout(), jsonPath, started, run, failover, runs); werr != nil {
					return werr
				}
			}
			if pause && (err == nil || errors.As(err, new(exitError))) {
				if len(run) > 0 {
					fmt.Fprintln(out)
				}
				err = errors.Join(err, runClientPause(cmd.Context(), out))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://HOST:PORT/metrics while measuring")
	cmd.Flags().StringVar(&jsonPath, "json", "", "write the scenarios' summary JSON (runs with their fault events and timelines) to FILE")
	return cmd
}

func scenarioHelp() string {
	var b strings.Builder
	for _, s := range scenarios {
		fmt.Fprintf(&b, "  %-31s %s\n  %-31s expected: %s\n", s.name, s.about, "", s.expect)
	}
	for _, s := range failoverScenarios {
		fmt.Fprintf(&b, "  %-31s %s\n  %-31s expected: %s\n", s.name, s.about, "", s.expect)
	}
	fmt.Fprintf(&b, "  %-31s %s\n  %-31s expected: %s\n", "client-pause", "Holder A stalls inside its critical section until its lease expired and B "+
		"holds the lock, then writes (3 rounds, Redlock, etcd and ZooKeeper).", "", "Redlock: the stale write lands; etcd's revision and ZooKeeper's czxid, used as fencing tokens, get it refused")
	return b.String()
}

// runScenarios runs list and prints their table; runs are the rows for
// --json, also when an outcome differs from the expected (exitError).
func runScenarios(ctx context.Context, w, stderr io.Writer, list []scenario, metrics *prom.Exporter) ([]results.Run, error) {
	var runs []results.Run
	var outs []scenarioOutcome
	for _, s := range list {
		cfg := defaultRunConfig()
		base(&cfg)
		s.setup(&cfg)
		cfg.metrics, cfg.stderr = metrics, stderr
		if err := cfg.validate(); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.name, err)
		}
		fmt.Fprintf(stderr, "lockbench: scenario %s (%v): %s\n", s.name, cfg.Workload.Duration, strings.Join(cfg.Faults, " "))
		m, err := measureScenario(ctx, cfg)
		if err != nil {
			if ctx.Err() != nil {
				return nil, errInterruptedEarly
			}
			return nil, fmt.Errorf("scenario %s: %w", s.name, err)
		}
		if ctx.Err() != nil {
			return nil, errInterruptedEarly // the JSON is written at the end
		}
		o := outcomeOf(m.Run, cfg.Workload.Duration)
		o.Scenario, o.Expected = s.name, s.expect
		o.AsExpect = s.judge(o)
		m.Run.Name = "scenario/" + s.name
		m.Run.Scenario = &o
		runs = append(runs, m.Run)
		outs = append(outs, o)
	}
	writeScenarioTable(w, outs)
	var differ []string
	for _, o := range outs {
		if !o.AsExpect {
			differ = append(differ, o.Scenario)
		}
	}
	if len(differ) > 0 {
		return runs, exitError{exitFailure, "measured outcome differs from the expected one: " + strings.Join(differ, ", ")}
	}
	return runs, nil
}

// writeScenarioJSON writes the rows of every scenario run into one summary.
func writeScenarioJSON(stdout io.Writer, path string, started time.Time, list []scenario, failover []failoverScenario, runs []results.Run) error {
	names := scenarioNamesOf(list)
	for _, f := range failover {
		names = append(names, f.name)
	}
	sum, err := results.NewSummary(started, map[string]any{"scenarios": names})
	if err != nil {
		return err
	}
	sum.Runs = runs
	if err := sum.WriteJSONTo(stdout, path); err != nil {
		return fmt.Errorf("--json %q: %w", path, err)
	}
	return nil
}

func scenarioNamesOf(list []scenario) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.name
	}
	return out
}

func measureScenario(ctx context.Context, cfg RunConfig) (measured, error) {
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		return measured{}, upError(ctx, err)
	}
	defer l.Close()
	return measureCell(ctx, cfg, l)
}

// outcomeOf reads the referee's violations and the fault report's
// availability timeline out of a run.
func outcomeOf(run results.Run, duration time.Duration) scenarioOutcome {
	o := scenarioOutcome{Violations: run.Counts.Violations, Acquired: run.Counts.Acquired, Attempts: run.Counts.Attempts, RecoveryMS: -1}
	rep := run.Faults
	if rep == nil {
		rep = &results.FaultReport{}
	}
	first, last := duration.Seconds(), 0.0
	for _, e := range rep.Events {
		at := e.AtMS / 1e3
		switch e.Action {
		case "kill", "stop", "inject":
			first = min(first, at)
		case "restart", "resume", "heal":
			last = max(last, at)
		}
	}
	repaired := last > 0
	if !repaired {
		last = duration.Seconds()
	}
	var nb, nd, na, sb, sd, sa float64
	for _, iv := range rep.Timeline {
		span := iv.ToS - iv.FromS
		if span < 0.5 { // a last partial interval says little about a rate
			continue
		}
		if iv.Acquired == 0 {
			o.ZeroSeconds++
		}
		rate := float64(iv.Acquired) / span
		switch {
		case iv.ToS <= first:
			nb, sb = nb+1, sb+rate
		case iv.FromS >= last:
			na, sa = na+1, sa+rate
		default:
			nd, sd = nd+1, sd+rate
		}
	}
	o.Before, o.During, o.After = ratio(sb, nb), ratio(sd, nd), ratio(sa, na)
	if !repaired {
		o.After = -1
	}
	if n := len(rep.Recoveries); n > 0 {
		o.RecoveryMS = rep.Recoveries[n-1].AfterMS
	}
	o.LongestOutageMS = rep.LongestOutageMS
	return o
}

func ratio(s, n float64) float64 {
	if n == 0 {
		return 0
	}
	return s / n
}

func writeScenarioTable(w io.Writer, outs []scenarioOutcome) {
	header := []any{"scenario", "viola-\ntions", "acquired/s\nbefore", "\nduring", "\nafter", "outage\nms", "recovery\nms", "expected", "ok"}
	var rows [][]any
	for _, o := range outs {
		rec := "-"
		if o.RecoveryMS >= 0 {
			rec = fmt.Sprintf("%.0f", o.RecoveryMS)
		}
		after := "-"
		if o.After >= 0 {
			after = fmt.Sprintf("%.0f", o.After)
		}
		verdict := "yes"
		if !o.AsExpect {
			verdict = "NO"
		}
		rows = append(rows, []any{o.Scenario, fmt.Sprint(o.Violations), fmt.Sprintf("%.0f", o.Before), fmt.Sprintf("%.0f", o.During), after,
			fmt.Sprintf("%.0f", o.LongestOutageMS), rec, o.Expected, verdict})
	}
	t := results.NewTable(w, results.TableWidth)
	t.Configure(func(cfg *tablewriter.Config) {
		align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}
		cfg.Header.Alignment.PerColumn, cfg.Row.Alignment.PerColumn = align, align
		// The expected outcome is prose: only it wraps, at words.
		cfg.Row.Formatting.AutoWrap = tw.WrapNormal
		cfg.Row.ColMaxWidths.PerColumn = tw.Mapper[int, int]{7: results.FlexWidth(header, rows, 7, results.TableWidth)}
	})
	t.Header(header...)
	for _, r := range rows {
		_ = t.Append(r...)
	}
	_ = t.Render()
}
