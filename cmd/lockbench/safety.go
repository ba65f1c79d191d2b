package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/safety"
)

// safetyRequest is a safety sweep as the command line gives it: the
// sweep's config and where its points go.
type safetyRequest struct {
	safety.Config
	JSON string `json:"-" flag:"json" value:"FILE" help:"write the points and the sweep's config as JSON to FILE (- for stdout)"`
	HTML string `json:"-" flag:"html" value:"FILE" help:"write the points' plot (violations per 10⁶ grants against fault ÷ TTL) as HTML to FILE"`
}

const safetyHelp = `safety measures mutual exclusion as a rate. For every --fault, --backends backend, --ratios
magnitude and --fencing mode it runs a contended workload on local servers until --grants
grants, each holder writing to a fenced resource at the start and at the end of its critical
section. The faults, each a magnitude ÷ --ttl: pause (the holder stops between its two writes,
a GC-like pause), clock-jump (one master's wall clock jumps ahead once a TTL while the first
worker of each key reaches only a bare quorum), clock-drift (that master's wall clock runs fast
by the ratio instead), delay (a minority of the servers answers late, on the delay line),
restart (a majority of masters is killed and restarts empty after the magnitude; 0 is at once).
Under every fault but the pause a holder keeps its lease for its whole validity. A lock its
library keeps alive (a ZooKeeper or PostgreSQL session, rueidislock's extension) has each
paused holder silenced, as a stopped process is: every worker dials through proxies of its own,
which hold its traffic for the pause. --fault takes a comma list or all, --backends NAME,
NAME/CLIENT (redlock/rueidis) or all; a fault that does not apply to a backend is skipped, and
the plan line says why. A violation is a pair of overlapping grants (the referee) or a stale
write the resource accepted (a superseded holder's write landing after its successor's); with
fencing the resource refuses writes with a token older than the newest it has seen (Redis-based
locks: a counter INCRed with the grant; etcd: the lock's revision; ZooKeeper: the znode's
czxid; PostgreSQL: a sequence's next value). Each point reports violations per 10⁶ grants with
an exact 95 % Poisson interval, [0, 3/grants] when there were none. The plan line says how long
the grid takes. The yes/no experiments stay in 'lockbench scenario'.`

func newSafetyCmd() *cobra.Command {
	req := safetyRequest{Config: safety.DefaultConfig()}
	var flags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "safety",
		Short: "Violations per 10⁶ grants as a fault grows, per backend, with and without fencing",
		Long:  safetyHelp + "\n\nFaults:\n" + strings.TrimRight(safety.FaultHelp(), "\n"),
		Example: `  lockbench safety --backends redlock,etcd --ratios 0.5,2 --fencing both --json safety.json
  lockbench safety --backends redlock --grants 2000
  lockbench safety --fault clock-jump,restart --backends redlock,redlock/rueidis,redsync
  lockbench safety --fault all --backends all --html safety.html`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := req.Validate(); err != nil {
				return fieldUsage(err, flags)
			}
			if err := checkScenarioJSON(cmd, req.JSON); err != nil {
				return err
			}
			if req.HTML != "" {
				if _, err := os.Stat(filepath.Dir(req.HTML)); err != nil {
					return usagef("--html %q: %v", req.HTML, err)
				}
			}
			return runSafetyCmd(cmd, req)
		},
	}
	flags = flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}

// runSafety measures a sweep (a seam for the CLI's tests).
var runSafety = safety.Run

func runSafetyCmd(cmd *cobra.Command, req safetyRequest) error {
	ctx := cmd.Context()
	res, err := runSafety(ctx, req.Config, cmd.ErrOrStderr())
	switch {
	case err != nil && len(res.Points) == 0:
		return upError(ctx, err)
	case res.Interrupted && len(res.Points) == 0:
		return errInterruptedEarly
	}
	tables := cmd.OutOrStdout()
	if req.JSON == "-" {
		tables = cmd.ErrOrStderr()
	}
	safety.WriteTable(tables, res.Points)
	out := safety.Outputs{JSON: req.JSON, HTML: req.HTML, Stdout: cmd.OutOrStdout()}
	if werr := flagError(out.Write(res)); werr != nil {
		return werr
	}
	switch {
	case err != nil:
		return err
	case res.Interrupted:
		return errInterrupted
	}
	return nil
}
