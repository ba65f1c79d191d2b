package generators

import (
	"context"
	"encoding/json"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Kinds of abort.
const (
	Lost      = "lost"      // a generator stopped reporting
	Threshold = "threshold" // the merged histograms broke a --threshold
	Failed    = "failed"    // a generator failed, or was refused (another config)
	// Coordination: the coordination store stopped answering this
	// generator (Generator −1).
	Coordination = "coordination"
)

// AbortError ends every generator of a run: the first one published wins.
type AbortError struct {
	Kind string `json:"kind"`
	// Generator is the lost generator (Lost: this one, when it learns it
	// was cut off), or the one that judged; −1 when the store itself was
	// lost (Coordination).
	Generator int    `json:"generator"`
	Reason    string `json:"reason"`
	// At is when it was decided, on the deciding generator's wall clock.
	At time.Time `json:"at"`
}

func (a *AbortError) Error() string { return "generators: run aborted: " + a.Reason }

// Abort ends the run for every generator: a publishes once (the first
// abort of the run stands) and this generator stops at once.
func (m *Member) Abort(a *AbortError) {
	if a.At.IsZero() {
		a.At = time.Now()
	}
	b, _ := json.Marshal(a)
	ctx, cancel := context.WithTimeout(context.Background(), storeWait)
	defer cancel()
	key := m.prefix + "abort"
	_, _ = m.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(b), clientv3.WithLease(m.lease))).Commit()
	m.abortLocal(a)
}

func (m *Member) abortLocal(a *AbortError) {
	m.abortOnce.Do(func() {
		m.abortMu.Lock()
		m.abort = a
		m.abortMu.Unlock()
		close(m.aborted)
	})
}

// Aborted is closed when the run is aborted (by any generator).
func (m *Member) Aborted() <-chan struct{} { return m.aborted }

// AbortErr is why the run was aborted; nil while it was not.
func (m *Member) AbortErr() *AbortError {
	m.abortMu.Lock()
	defer m.abortMu.Unlock()
	return m.abort
}

// Context is ctx, canceled when the run is aborted.
func (m *Member) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	return endedBy(ctx, m.aborted)
}

// endedBy is ctx, canceled also when done is closed.
func endedBy(ctx context.Context, done <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
