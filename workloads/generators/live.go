package generators

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// snapshot is one generator's totals so far, published once a second:
// each op's histogram of the measured window (HDR, exact) and counts.
type snapshot struct {
	ElapsedNS int64             `json:"elapsed_ns"`
	Cycles    int64             `json:"cycles"`
	Attempts  int64             `json:"attempts"`
	Hists     map[string][]byte `json:"hists"` // op → HDR V2 compressed
}

// NewSnapshot encodes total, elapsed into the measured window. It is
// called on the once-a-second tick, never per sample.
func NewSnapshot(elapsed time.Duration, total *record.Interval) snapshot {
	s := snapshot{ElapsedNS: int64(elapsed), Cycles: total.Count(schema.OpCycle, schema.OK),
		Attempts: total.Total(schema.OpAcquire), Hists: map[string][]byte{}}
	for _, op := range schema.Ops() {
		h := total.Latency(op)
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		if b, err := encodeHist(h); err == nil {
			s.Hists[op.String()] = b
		}
	}
	return s
}

// encodeHist is h in the HDR V2 compressed encoding (what .hlog files hold).
func encodeHist(h *hdrhistogram.Histogram) ([]byte, error) {
	return h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
}

// Publish puts s as this generator's latest snapshot. It is meant for a
// goroutine of its own (Publisher): a slow store must not hold the tick.
func (m *Member) Publish(ctx context.Context, s snapshot) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = m.cli.Put(ctx, m.key("live", m.cfg.Index), string(b), clientv3.WithLease(m.lease))
	return err
}

// Publisher publishes snapshots off the caller's goroutine; a snapshot
// not yet sent is replaced by a newer one. Stop ends it.
type Publisher struct {
	ch   chan snapshot
	done chan struct{}
}

// NewPublisher starts publishing m's snapshots until ctx ends or Stop.
func (m *Member) NewPublisher(ctx context.Context) *Publisher {
	p := &Publisher{ch: make(chan snapshot, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for s := range p.ch {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_ = m.Publish(pctx, s)
			cancel()
		}
	}()
	return p
}

// Offer hands s to the publisher without waiting.
func (p *Publisher) Offer(s snapshot) {
	select {
	case p.ch <- s:
	default:
		select { // replace the stale one
		case <-p.ch:
		default:
		}
		select {
		case p.ch <- s:
		default:
		}
	}
}

// Stop ends the publisher once what it holds is sent.
func (p *Publisher) Stop() { close(p.ch); <-p.done }

// Merged is the generators' latest snapshots merged.
type Merged struct {
	Reporting int
	Run       schema.Run // throughput, counts and latencies of the merge
}

// Merge merges the latest snapshot of every generator that sent one:
// histograms exactly (HDR merge), throughput as the sum of rates.
func (m *Member) Merge() Merged {
	m.st.mu.Lock()
	var snaps []snapshot
	for i := range m.cfg.Generators {
		if b, ok := m.st.vals[m.key("live", i)]; ok {
			var s snapshot
			if json.Unmarshal(b, &s) == nil {
				snaps = append(snaps, s)
			}
		}
	}
	m.st.mu.Unlock()
	return mergeSnapshots(snaps)
}

// mergeSnapshots merges snapshots: histograms exactly (HDR merge), counts
// summed, throughput as the sum of each generator's rate.
func mergeSnapshots(snaps []snapshot) Merged {
	out := Merged{Reporting: len(snaps), Run: schema.Run{LatencyUS: map[string]schema.Percentiles{}}}
	hists := map[string]*hdrhistogram.Histogram{}
	for _, s := range snaps {
		out.Run.Counts.Cycles += s.Cycles
		out.Run.Counts.Attempts += s.Attempts
		if s.ElapsedNS > 0 {
			out.Run.Throughput.CyclesPerS += float64(s.Cycles) / time.Duration(s.ElapsedNS).Seconds()
			out.Run.Throughput.AttemptsPerS += float64(s.Attempts) / time.Duration(s.ElapsedNS).Seconds()
		}
		for op, b := range s.Hists {
			h, err := hdrhistogram.Decode(b)
			if err != nil {
				continue
			}
			if t, ok := hists[op]; ok {
				t.Merge(h)
			} else {
				t = record.NewHistogram()
				t.Merge(h)
				hists[op] = t
			}
		}
	}
	for op, h := range hists {
		out.Run.LatencyUS[op] = record.Summarize(h)
	}
	return out
}

// liveThresholds are the upper bounds among ts: judged on the merged
// figures while running (a lower bound cannot be judged before the end).
func liveThresholds(ts []gate.Threshold) []gate.Threshold {
	var out []gate.Threshold
	for _, t := range ts {
		if t.Op == "<" || t.Op == "<=" {
			out = append(out, t)
		}
	}
	return out
}

// breach is the first of ts the merged run breaks, as a reason; "" when
// none does (a metric the run has not recorded yet holds).
func breach(r schema.Run, ts []gate.Threshold) string {
	for _, t := range ts {
		if !t.Applies(r.Name) {
			continue
		}
		v, err := gate.Metric(r, t.Metric)
		if err != nil || t.Holds(v) {
			continue
		}
		return fmt.Sprintf("%s is %g on the merged histograms: breaks --threshold %s", t.Metric, v, t.Expr)
	}
	return ""
}

// Watch is generator 0's live view: once a second it merges the
// generators' snapshots and hands the merge to show (nil: none; the
// metrics exporter) until ctx ends; while window lasts (generator 0's own
// measured window) it also writes a line on log (nil: quiet) and aborts
// the run when the merged figures break an upper-bound threshold. After
// the window it goes on merging the snapshots the others publish as their
// windows end, so the merged series reach the run's totals while the
// results are gathered; the thresholds are then judged on the merged run.
func (m *Member) Watch(ctx, window context.Context, name string, ts []gate.Threshold, log io.Writer, show func(Merged)) {
	live := liveThresholds(ts)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if since := m.UnreachableSince(); !since.IsZero() {
			// The others' figures cannot have come: say so, not them.
			if log != nil && window.Err() == nil {
				fmt.Fprintln(log, unreachableLine(since))
			}
			continue
		}
		mg := m.Merge()
		if mg.Reporting == 0 {
			continue
		}
		mg.Run.Name = name
		if show != nil {
			show(mg)
		}
		if window.Err() != nil {
			continue
		}
		if log != nil {
			fmt.Fprintln(log, liveLine(mg, m.cfg.Generators))
		}
		if reason := breach(mg.Run, live); reason != "" {
			m.Abort(&AbortError{Kind: Threshold, Generator: m.cfg.Index, Reason: reason})
			return
		}
	}
}

// View is a running Watch: Start runs it on a goroutine of its own,
// EndWindow ends its window, Stop ends it and waits for it. A nil *View
// (a generator other than 0) does nothing.
type View struct {
	endWindow, cancel context.CancelFunc
	done              chan struct{}
}

// StartWatch runs Watch until Stop, its window open until EndWindow.
func (m *Member) StartWatch(ctx context.Context, name string, ts []gate.Threshold, log io.Writer, show func(Merged)) *View {
	watchCtx, cancel := context.WithCancel(ctx)
	window, endWindow := context.WithCancel(ctx)
	v := &View{endWindow: endWindow, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(v.done)
		m.Watch(watchCtx, window, name, ts, log, show)
	}()
	return v
}

// EndWindow ends the view's window: from now on it only shows.
func (v *View) EndWindow() {
	if v != nil {
		v.endWindow()
	}
}

// Stop ends the view and waits until it has; again, it returns at once.
func (v *View) Stop() {
	if v != nil {
		v.endWindow()
		v.cancel()
		<-v.done
	}
}

// unreachableLine is the merged view's line while the coordination store
// does not answer.
func unreachableLine(since time.Time) string {
	return fmt.Sprintf("generators: coordination store unreachable since %s (no answer for %.1f s): no merged figures; the run stops if it does not answer by %s",
		clock(since), time.Since(since).Seconds(), clock(since.Add(leaseTTL*time.Second+leaseProbe)))
}

// liveLine is one line of the merged view.
func liveLine(mg Merged, of int) string {
	s := fmt.Sprintf("generators: %d/%d reporting, merged %.0f cycles/s", mg.Reporting, of, mg.Run.Throughput.CyclesPerS)
	if p, ok := mg.Run.LatencyUS[schema.OpCycle.String()]; ok {
		s += fmt.Sprintf(", cycle p50 %.0f µs p99 %.0f µs", p.P50, p.P99)
	}
	return strings.TrimSpace(s)
}
