package generators

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Run is one cell measured by several generators, as this process takes
// its part: join, agree on the plan, meet at the start barrier, measure
// the same window, publish its share; generator 0 merges the shares,
// judges the whole and gives the verdict every generator exits with.
//
// What the run is measured on and how its results are written are the
// caller's (Open, Write, Failures): a CLI gives its flags' servers and
// outputs, a test its own.
type Run struct {
	// Generators is how this process takes part (Resolved, Check-ed).
	Generators Config
	// Plan is this generator's whole configuration, JSON-encoded at the
	// join: every generator's must be generator 0's.
	Plan any
	// Cell is what every generator measures.
	Cell lab.Config
	// Open starts what the cell is measured on (its servers, a metrics
	// exporter) once the run is joined, with the summary its result goes
	// in; closeLab stops them.
	Open func(ctx context.Context) (l *lab.Lab, sum *schema.Summary, closeLab func(), err error)
	// Observers see the measurement (Log, Metrics, Progress); the start
	// barrier and the referee are the run's own.
	Observers lab.Observers
	// Output writes both results when Write is nil: this generator's share
	// without its table (and, from generator 0, without the JSON on stdout,
	// which carries the merged run's), then generator 0's merged run. Its
	// Out, when set, also receives every generator's grant log, and where
	// it writes is what ShareAt says.
	Output output.Writer
	// Write, if set, writes a result instead of Output: this generator's
	// own share (share true: no table, the merged run's is the run's), or
	// generator 0's merged run.
	Write func(sum *schema.Summary, logs map[string]output.Logs, share bool) error
	// GrantsDir, if set, receives every generator's grant log beside the
	// merged run (GrantLogName); with Output, its Out is.
	GrantsDir string
	// ShareAt says where Write puts this generator's share ("in runs/g1"),
	// for the message of a run that ended without merging it; "" says
	// nothing. With Output, its Out or JSON file is.
	ShareAt string
	// Failures are the merged run's own checks (no progress, failed
	// attempts), an error with an ExitCode method choosing the status; nil:
	// none.
	Failures func(runs []schema.Run) error
}

// Do takes this process's part in the run. It returns nil when the run
// passed; a *VerdictError with the status every generator exits with;
// ErrInterrupted when a signal (ctx) ended it after the share was
// written; a *JoinError when the run refused this generator.
func (r Run) Do(ctx context.Context) (err error) {
	if r.Write == nil {
		r.Write, r.GrantsDir, r.ShareAt = r.writeOutput, r.Output.Out, shareAt(r.Output)
	}
	m, err := join(ctx, r.Generators, r.Plan)
	if err != nil {
		return err
	}
	defer m.Close()
	defer abortOnFailure(ctx, m, &err)
	c := r.Cell
	shareKeys(&c, m)
	runCtx, cancel := m.Context(ctx)
	defer cancel()
	l, sum, closeLab, err := r.Open(runCtx)
	if err != nil {
		return abortedOr(m, err)
	}
	defer closeLab()
	sh, err := measureShare(runCtx, m, l, c, r.Observers, r.Generators.Thresholds)
	if err != nil {
		return abortedOr(m, err)
	}
	defer sh.close()
	// A process resumed after a pause past its lease learns it here, so
	// that its share says so.
	m.Settle(ctx)
	sum.Runs = []schema.Run{sh.cell.Run}
	sum.Interrupted = cutShort(&sum.Runs[0], m, runCtx.Err() != nil)
	// The share first, before anything is published: what this generator
	// measured stays on its disk whatever becomes of the store or of
	// generator 0 (whose merged run then takes its place).
	if err := r.writeShare(sum, sh.cell); err != nil {
		return err
	}
	if ctx.Err() != nil {
		// Ctrl-C, or the pod being deleted: the others stop too, and this
		// generator keeps what it measured.
		interrupted(m)
		return ErrInterrupted
	}
	if m.Cut() {
		// The store lost, or this generator cut off: nothing can be
		// published, and no merge will have this share.
		return r.kept(m, abortError(m.AbortErr()))
	}
	if err := sh.publish(ctx, sum); err != nil {
		return r.kept(m, publishErr(ctx, m, err))
	}
	if m.Index() != 0 {
		return r.kept(m, verdictErr(ctx, m))
	}
	return r.kept(m, r.merge(ctx, m, sh.final))
}

// cutShort says on run why it ended before its window did, when an abort
// ended it or this generator's lease ended with it (a pause past the
// lease: the window ran on, but no longer as a part of the run), and
// returns whether it was cut short at all (a signal says so by
// Interrupted alone).
func cutShort(run *schema.Run, m *Member, stopped bool) bool {
	a := m.AbortErr()
	if a != nil && (stopped || m.Cut()) {
		run.Interrupted = true
		run.CutShort = fmt.Sprintf("at %s: %s", clock(a.At), a.Reason)
	}
	return stopped || run.Interrupted
}

// publishErr is a failure to publish this generator's result: once the
// lease has had time to say why (this generator cut off, the store
// lost), that; else the store's failure, as a lost coordination.
func publishErr(ctx context.Context, m *Member, err error) error {
	m.Settle(ctx)
	if m.Cut() {
		return abortError(m.AbortErr())
	}
	return &VerdictError{Code: ExitCoordination, Message: fmt.Sprintf("generators: publishing generator %d's share: %v", m.Index(), err)}
}

// kept is err (nil: nil) with where this generator's share was kept, when
// the run did not end with a verdict that had it merged.
func (r Run) kept(m *Member, err error) error {
	if err == nil || r.ShareAt == "" {
		return err
	}
	what := fmt.Sprintf("generator %d's share is kept %s", m.Index(), r.ShareAt)
	var v *VerdictError
	if errors.As(err, &v) {
		return &VerdictError{Code: v.Code, Message: v.Message + " (" + what + ")"}
	}
	return fmt.Errorf("%w (%s)", err, what)
}

// join joins the run under g's prefix with plan (JSON-encoded) as this
// generator's config: a refusal is a *JoinError, a signal during the wait
// ctx's error.
func join(ctx context.Context, g Config, plan any) (*Member, error) {
	b, err := json.Marshal(plan)
	if err != nil {
		return nil, err
	}
	m, err := Join(ctx, g, b)
	switch {
	case err == nil:
		return m, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, ErrNoPlan):
		return nil, err // generator 0 missing, not this one's input
	}
	return nil, &JoinError{err}
}

// writeShare writes this generator's own measurement, without the table:
// the merged run's is the run's.
func (r Run) writeShare(sum *schema.Summary, cell lab.Cell) error {
	return r.Write(sum, lab.Logs([]lab.Cell{cell}), true)
}

// merge is generator 0's end: collect every generator's result (or note
// it lost), merge them into one run as lockbench merge would, show it on
// the merged series (final, nil: none), judge the grants across
// generators and the thresholds, write it, and tell everyone the verdict.
func (r Run) merge(ctx context.Context, m *Member, final func(Merged)) error {
	mg, err := mergeShares(ctx, m, r.Generators)
	if err != nil {
		return err
	}
	if final != nil {
		final(Merged{Reporting: len(mg.res), Run: mg.sum.Runs[0]})
	}
	werr := r.Write(mg.sum, mg.logs(), false)
	if werr == nil && r.GrantsDir != "" {
		werr = writeGrantLogs(r.GrantsDir, mg.res)
	}
	logMerged(r.Observers.Log, mg.rep, len(mg.res))
	verdict := mg.verdict
	if verdict.Code == 0 && werr == nil && r.Failures != nil {
		verdict = verdictOf(r.Failures(mg.sum.Runs))
	}
	_ = m.PublishVerdict(context.WithoutCancel(ctx), verdict)
	if werr != nil {
		return werr
	}
	return verdict.err()
}

// writeOutput writes a result with r.Output (Run.Output).
func (r Run) writeOutput(sum *schema.Summary, logs map[string]output.Logs, share bool) error {
	w := r.Output
	w.NoTable = share
	if share && r.Generators.Index == 0 && w.JSON == "-" {
		w.JSON = "" // stdout carries one JSON: the merged run's
	}
	return w.Write(sum, logs)
}

// shareAt is where w writes a share, for messages: its Out, else its
// JSON file; "" when neither is on disk.
func shareAt(w output.Writer) string {
	switch {
	case w.Out != "":
		return "in " + w.Out
	case w.JSON != "" && w.JSON != "-":
		return "in " + w.JSON
	}
	return ""
}
