package generators

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// partSize keeps each value well under etcd's request limit (1.5 MiB).
const partSize = 1 << 20

// Result is what one generator measured, as generator 0 merges it.
type Result struct {
	Generator int `json:"generator"`
	// Info is the generator's own account: host, offsets, window.
	Info Info `json:"info"`
	// Files are its output directory (summary.json, .hlog files), by name.
	Files map[string][]byte `json:"-"`
	// Grants is its grant log on the masters' clock (workloads/generators/crossref).
	Grants []byte `json:"-"`
}

// Info is one generator as the merged summary reports it.
type Info struct {
	Generator int    `json:"generator"`
	Host      string `json:"host"`
	Pid       int    `json:"pid"`
	// OffsetUS is the masters' clock minus this generator's at the start
	// barrier, OffsetErrorUS its bound (half the best round trip), EndOffsetUS
	// the same measured after the run.
	OffsetUS      float64 `json:"offset_us"`
	OffsetErrorUS float64 `json:"offset_error_us"`
	EndOffsetUS   float64 `json:"end_offset_us"`
	EndErrorUS    float64 `json:"end_offset_error_us"`
	// WindowStart and WindowEnd are the measured window on the masters'
	// clock. Every generator's window starts at the agreed instant plus the
	// warmup, so the starts differ by the offsets' errors only.
	WindowStart time.Time `json:"window_start"`
	WindowEnd   time.Time `json:"window_end"`
	// StartLateUS is how late this generator woke after the agreed start
	// (its workers began then; the warmup absorbs it).
	StartLateUS float64 `json:"start_late_us"`
	Cycles      int64   `json:"cycles"`
	CyclesPerS  float64 `json:"cycles_per_s"`
	Interrupted bool    `json:"interrupted,omitempty"`
}

type resultIndex struct {
	Info  Info           `json:"info"`
	Parts map[string]int `json:"parts"` // blob name → parts
}

// publishWait bounds publishing one result, every part of it.
const publishWait = 10 * time.Second

// PublishResult puts r under this generator's lease: its blobs in parts,
// then the index that says they are complete; at most publishWait.
func (m *Member) PublishResult(ctx context.Context, r Result) error {
	ctx, cancel := context.WithTimeout(ctx, publishWait)
	defer cancel()
	idx := resultIndex{Info: r.Info, Parts: map[string]int{}}
	blobs := map[string][]byte{"grants": r.Grants}
	for name, b := range r.Files {
		blobs["file:"+name] = b
	}
	for name, b := range blobs {
		n := 0
		for off := 0; off == 0 || off < len(b); off += partSize {
			part := b[off:min(off+partSize, len(b))]
			if _, err := m.cli.Put(ctx, m.partKey(m.cfg.Index, name, n), string(part), clientv3.WithLease(m.lease)); err != nil {
				return fmt.Errorf("generators: publishing the result: %w", err)
			}
			n++
		}
		idx.Parts[name] = n
	}
	b, _ := json.Marshal(idx)
	if _, err := m.cli.Put(ctx, m.key("result", m.cfg.Index), string(b), clientv3.WithLease(m.lease)); err != nil {
		return fmt.Errorf("generators: publishing the result: %w", err)
	}
	return nil
}

func (m *Member) partKey(gen int, name string, part int) string {
	return m.prefix + "part/" + strconv.Itoa(gen) + "/" + name + "/" + strconv.Itoa(part)
}

// Collect waits (at most timeout, less if this generator's lease ends)
// until every generator has published its result or is lost, and returns
// the results in order of index and the generators that sent none.
func (m *Member) Collect(ctx context.Context, timeout time.Duration) ([]Result, []int, error) {
	wait, stop := m.untilCut(ctx)
	defer stop()
	wait, cancel := context.WithTimeout(wait, timeout)
	defer cancel()
	_ = m.st.wait(wait, func(v map[string][]byte, gone map[string]bool) bool {
		for i := range m.cfg.Generators {
			_, in := v[m.key("result", i)]
			if !in && !gone[m.key("member", i)] {
				return false
			}
		}
		return true
	})
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	var out []Result
	var missing []int
	for i := range m.cfg.Generators {
		r, ok, err := m.result(i)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			missing = append(missing, i)
			continue
		}
		out = append(out, r)
	}
	return out, missing, nil
}

func (m *Member) result(i int) (Result, bool, error) {
	raw, ok := m.st.get(m.key("result", i))
	if !ok {
		return Result{}, false, nil
	}
	var idx resultIndex
	if err := json.Unmarshal(raw, &idx); err != nil {
		return Result{}, false, fmt.Errorf("generators: generator %d's result: %w", i, err)
	}
	r := Result{Generator: i, Info: idx.Info, Files: map[string][]byte{}}
	for _, name := range slices.Sorted(maps.Keys(idx.Parts)) {
		var b []byte
		for p := range idx.Parts[name] {
			part, ok := m.st.get(m.partKey(i, name, p))
			if !ok {
				return Result{}, false, fmt.Errorf("generators: generator %d's result lacks %s part %d", i, name, p)
			}
			b = append(b, part...)
		}
		if name == "grants" {
			r.Grants = b
		} else {
			r.Files[name[len("file:"):]] = b
		}
	}
	return r, true, nil
}

// Ending is generator 0's last word: the exit status every generator
// takes, and why.
type Ending struct {
	Code    int    `json:"code"`
	Message string `json:"message,omitempty"`
}

// PublishVerdict ends the run for the others (generator 0); at most
// storeWait.
func (m *Member) PublishVerdict(ctx context.Context, v Ending) error {
	ctx, cancel := context.WithTimeout(ctx, storeWait)
	defer cancel()
	b, _ := json.Marshal(v)
	m.abortMu.Lock()
	m.finished = true
	m.abortMu.Unlock()
	_, err := m.cli.Put(ctx, m.prefix+"verdict", string(b), clientv3.WithLease(m.lease))
	return err
}

// Finished: generator 0's verdict was given (or seen): the run is over.
func (m *Member) Finished() bool {
	m.abortMu.Lock()
	defer m.abortMu.Unlock()
	return m.finished
}

// AwaitVerdict waits (at most timeout, less if this generator's lease
// ends) for generator 0's verdict; false when none came (generator 0 was
// lost, this generator cut off, or the wait ran out).
func (m *Member) AwaitVerdict(ctx context.Context, timeout time.Duration) (Ending, bool) {
	wait, stop := m.untilCut(ctx)
	defer stop()
	wait, cancel := context.WithTimeout(wait, timeout)
	defer cancel()
	_ = m.st.wait(wait, func(v map[string][]byte, gone map[string]bool) bool {
		_, ok := v[m.prefix+"verdict"]
		return ok || gone[m.key("member", 0)]
	})
	raw, ok := m.st.get(m.prefix + "verdict")
	if !ok {
		return Ending{}, false
	}
	var v Ending
	if json.Unmarshal(raw, &v) != nil {
		return Ending{}, false
	}
	return v, true
}

// Index is this generator's index.
func (m *Member) Index() int { return m.cfg.Index }

// Generators is how many generators make the run.
func (m *Member) Generators() int { return m.cfg.Generators }
