package multiplex

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestPipelineFarBatchesGather: with several batches allowed in flight,
// callers answered by the same batches send their next commands together
// rather than one batch each. Eight callers on their own keys against
// masters a millisecond away must average at least two commands a batch
// (each alone would be one; all together, eight).
func TestPipelineFarBatchesGather(t *testing.T) {
	const masters, callers, rounds = 5, 8, 40
	nodes, fs := newFlightNodes(masters, 0, true)
	for _, f := range fs {
		f.delay = time.Millisecond
	}
	p, err := newPipeline(nodes, Options{MaxInFlight: DefaultMaxInFlight})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]Reply, masters)
			for r := range rounds {
				token := fmt.Sprintf("%d/%d", c, r)
				p.Broadcast(context.Background(), Cmd{Key: fmt.Sprint("k", c), Token: token, Timeout: time.Minute}, out)
				if err := echoed(out, token); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, f := range fs {
		started, _, _, cmds := f.stats()
		if cmds != callers*rounds {
			t.Fatalf("master %d: %d commands, want %d", i, cmds, callers*rounds)
		}
		if per := float64(cmds) / float64(started); per < 2 {
			t.Errorf("master %d: %.2f commands a batch (%d batches), want at least 2: callers answered together left apart", i, per, started)
		}
	}
}
