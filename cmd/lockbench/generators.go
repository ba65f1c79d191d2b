package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/internal/results/gate"
	"github.com/lockbench/lockbench/internal/workloads/generators"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Exit statuses of a run of several generators.
const (
	exitThreshold = 5 // the merged histograms broke a --threshold: every generator aborted
	exitLost      = 6 // a generator stopped reporting: every generator aborted
)

// checkGenerators checks --generators and its companions before anything
// starts.
func checkGenerators(g *generators.Config, cfg RunConfig, set *flagtag.Set) error {
	if err := g.Resolve(); err != nil {
		return fieldUsage(err, set)
	}
	if !g.On() {
		if len(g.Thresholds) > 0 {
			return usagef("--threshold: judged on the merged run of --generators N; a single run is gated by lockbench gate")
		}
		return nil
	}
	if _, err := gate.ParseThresholds(g.Thresholds); err != nil {
		return fieldUsage(err, set)
	}
	b, _ := backends.Lookup(cfg.Driver.Backend)
	switch {
	case !b.Uses(backends.Redis):
		return usagef("--generators: backend %s has no Redis masters, whose TIME is the generators' common clock", cfg.Driver.Backend)
	case len(cfg.Topology.RedisAddrs) == 0:
		return usagef("--generators: give the masters every generator drives (--redis)")
	}
	return nil
}

// mastersTime reads master e's TIME: the generators' common clock.
func mastersTime(e redisconn.Endpoint) (generators.TimeSource, func()) {
	c := redis.NewClient(&redis.Options{Addr: e.Addr, Username: e.Username, Password: e.Password, DB: e.DB, TLSConfig: e.TLS,
		PoolSize: 1, DisableIdentity: true})
	return func(ctx context.Context) (time.Time, error) { return c.Time(ctx).Result() }, func() { c.Close() }
}

// runGenerator is `lockbench run --generators N`: this process measures
// its share of one run; generator 0 also merges and judges the whole.
func runGenerator(ctx context.Context, cfg RunConfig, g generators.Config) (err error) {
	m, err := joinGenerators(ctx, g, struct {
		Run        RunConfig         `json:"run"`
		Generators generators.Config `json:"generators"`
	}{cfg, g})
	if err != nil {
		return err
	}
	defer m.Close()
	defer abortOnFailure(ctx, m, &err)
	shareKeys(&cfg.Config, m)
	runCtx, cancel := m.Context(ctx)
	defer cancel()
	l, sum, closeLab, err := openLab(runCtx, &cfg, cfg)
	if err != nil {
		return abortedOr(m, err)
	}
	defer closeLab()
	obs := lab.Observers{Log: cfg.log(), Metrics: cfg.metrics}
	if !cfg.Quiet {
		obs.Progress = progressLine(cfg)
	}
	sh, err := measureShare(runCtx, m, l, cfg.Config, obs, g.Thresholds)
	if err != nil {
		return abortedOr(m, err)
	}
	defer sh.close()
	sum.Runs = []schema.Run{sh.cell.Run}
	sum.Interrupted = runCtx.Err() != nil
	if ctx.Err() != nil {
		// Ctrl-C, or the pod being deleted: the others stop too, and this
		// generator keeps what it measured.
		interrupted(m)
		if err := writeShare(cfg, sum, sh.cell); err != nil {
			return err
		}
		return errInterrupted
	}
	if err := sh.publish(ctx, sum); err != nil {
		return err
	}
	if m.Index() != 0 {
		return awaitVerdict(ctx, m, cfg, sum, sh.cell)
	}
	return mergeGenerators(ctx, m, cfg, g, sh.final)
}

// joinGenerators joins the run under g's prefix with plan (JSON-encoded)
// as this generator's config: a refusal is bad input.
func joinGenerators(ctx context.Context, g generators.Config, plan any) (*generators.Member, error) {
	b, err := json.Marshal(plan)
	if err != nil {
		return nil, err
	}
	m, err := generators.Join(ctx, g, b)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterruptedEarly
		}
		return nil, usageError{err}
	}
	return m, nil
}

// abortOnFailure tells the others at once why this generator ends, rather
// than leaving them to find it gone.
func abortOnFailure(ctx context.Context, m *generators.Member, err *error) {
	if *err != nil && ctx.Err() == nil && m.AbortErr() == nil && !m.Finished() {
		m.Abort(&generators.AbortError{Kind: generators.Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d failed: %v", m.Index(), *err)})
	}
}

// interrupted ends the run for every generator: this one was interrupted.
func interrupted(m *generators.Member) {
	m.Abort(&generators.AbortError{Kind: generators.Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d was interrupted", m.Index())})
}

// shareKeys: in the uncontended workload each worker's keys are its own,
// so the generator's index keeps the same worker of two generators off one
// key sequence.
func shareKeys(c *lab.Config, m *generators.Member) {
	if c.Workload.Workload == "uncontended" {
		c.Workload.Prefix += "g" + strconv.Itoa(m.Index())
	}
}

// abortedOr is the run's abort, if it was aborted, else err.
func abortedOr(m *generators.Member, err error) error {
	if a := m.AbortErr(); a != nil {
		return abortError(a)
	}
	return err
}

func abortError(a *generators.AbortError) error {
	code := exitFailure
	switch a.Kind {
	case generators.Threshold:
		code = exitThreshold
	case generators.Lost:
		code = exitLost
	}
	return exitError{code, a.Error()}
}

// awaitVerdict: a generator other than 0 writes its own share where it was
// told to (--out, --json) and ends with generator 0's verdict.
func awaitVerdict(ctx context.Context, m *generators.Member, cfg RunConfig, sum *schema.Summary, cell lab.Cell) error {
	if err := writeShare(cfg, sum, cell); err != nil {
		return err
	}
	return verdictErr(ctx, m)
}

// verdictErr waits for generator 0's verdict and is it as an error (nil:
// the run passed), or the abort, the interruption or generator 0's loss
// that ended the wait.
func verdictErr(ctx context.Context, m *generators.Member) error {
	v, ok := m.AwaitVerdict(ctx, 2*time.Minute)
	switch {
	case ok && v.Code == exitOK:
		return nil
	case ok:
		return exitError{v.Code, v.Message}
	case m.AbortErr() != nil:
		return abortError(m.AbortErr())
	case ctx.Err() != nil:
		return errInterrupted
	}
	return exitError{exitLost, "generators: generator 0 gave no verdict (lost)"}
}

// verdictOf is err as the verdict every generator exits with.
func verdictOf(err error) generators.Verdict {
	if err == nil {
		return generators.Verdict{}
	}
	code := exitFailure
	var ec exitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	return generators.Verdict{Code: code, Message: err.Error()}
}

// writeShare writes this generator's own measurement where it was told
// (--out, --json), without the table: generator 0's is the run's.
func writeShare(cfg RunConfig, sum *schema.Summary, cell lab.Cell) error {
	w := cfg.Writer(cfg.out())
	w.NoTable = true
	return flagError(w.Write(sum, lab.Logs([]lab.Cell{cell})))
}
