package generators

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// startMargin is how far ahead of the masters' clock generator 0 sets the
// start: the start key must reach every generator before it passes.
const startMargin = 500 * time.Millisecond

// Start is where this generator stood at the barrier.
type Start struct {
	At     time.Time // the common start, on the masters' clock
	Local  time.Time // the same instant on this process's clock (monotonic)
	Offset offset    // this generator's offset, measured at the barrier
	// Late is how long after the agreed instant this process woke to
	// start its workers (scheduling, a loaded machine).
	Late time.Duration
}

// Barrier waits until every generator is ready and the common start has
// come: each measures its offset against ref and says it is ready;
// generator 0, once all are, sets the start ahead on the masters' clock;
// each sleeps until that instant on its own clock, which is its run's
// origin (Start.Local) however late it wakes. Waits are bounded by
// JoinTimeout; an abort ends them.
func (m *Member) Barrier(ctx context.Context, ref TimeSource) (Start, error) {
	ctx, cancel := m.Context(ctx)
	defer cancel()
	off, err := MeasureOffset(ctx, ref)
	if err != nil {
		return Start{}, m.ended(err)
	}
	b, _ := json.Marshal(off)
	if _, err := m.cli.Put(ctx, m.key("ready", m.cfg.Index), string(b), clientv3.WithLease(m.lease)); err != nil {
		return Start{}, m.ended(err)
	}
	wait, cancelWait := context.WithTimeout(ctx, m.cfg.JoinTimeout)
	defer cancelWait()
	if m.cfg.Index == 0 {
		if err := m.st.wait(wait, func(v map[string][]byte, _ map[string]bool) bool { return len(m.missing(v, "ready")) == 0 }); err != nil {
			return Start{}, m.ended(fmt.Errorf("generators: %s did not reach the start within %v", m.missingList("ready"), m.cfg.JoinTimeout))
		}
		now, err := ref(ctx)
		if err != nil {
			return Start{}, m.ended(fmt.Errorf("generators: the masters' clock: %w", err))
		}
		at := now.Add(startMargin)
		if _, err := m.cli.Put(ctx, m.prefix+"start", strconv.FormatInt(at.UnixNano(), 10), clientv3.WithLease(m.lease)); err != nil {
			return Start{}, m.ended(err)
		}
	}
	if err := m.st.wait(wait, func(v map[string][]byte, _ map[string]bool) bool { _, ok := v[m.prefix+"start"]; return ok }); err != nil {
		return Start{}, m.ended(fmt.Errorf("generators: no start from generator 0 within %v", m.cfg.JoinTimeout))
	}
	raw, _ := m.st.get(m.prefix + "start")
	ns, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return Start{}, fmt.Errorf("generators: bad start %q", raw)
	}
	s := Start{At: time.Unix(0, ns), Offset: off}
	now := time.Now()
	s.Local = now.Add(off.Local(s.At).Sub(now)) // with a monotonic reading
	t := time.NewTimer(s.Local.Sub(now))
	defer t.Stop()
	select {
	case <-t.C:
		s.Late = max(time.Since(s.Local), 0)
		return s, nil
	case <-ctx.Done():
		return Start{}, m.ended(ctx.Err())
	}
}

// ended is err, or the abort that caused it.
func (m *Member) ended(err error) error {
	if a := m.AbortErr(); a != nil {
		return a
	}
	return err
}

// missing lists the generators without a key of kind in v.
func (m *Member) missing(v map[string][]byte, kind string) []int {
	var out []int
	for i := range m.cfg.Generators {
		if _, ok := v[m.key(kind, i)]; !ok {
			out = append(out, i)
		}
	}
	return out
}

func (m *Member) missingList(kind string) string {
	m.st.mu.Lock()
	miss := m.missing(m.st.vals, kind)
	m.st.mu.Unlock()
	return "generator(s) " + firstFew(miss)
}

// firstFew lists the first few of xs, and how many more there are.
func firstFew(xs []int) string {
	const few = 5
	s := make([]string, 0, few)
	for _, x := range xs[:min(len(xs), few)] {
		s = append(s, strconv.Itoa(x))
	}
	if len(xs) > few {
		return fmt.Sprintf("%s and %d more (%d in all)", strings.Join(s, ", "), len(xs)-few, len(xs))
	}
	return strings.Join(s, ", ")
}
