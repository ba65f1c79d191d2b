package backends

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/multiplex"
)

// warmTimeout bounds the warm-up of one connection (a dial, the client's
// handshake and one command), far above any --node-timeout: on a loaded
// machine behind a proxy a handshake can take longer than a command's
// budget, and a dial cut by that budget is thrown away and retried by the
// next command, so a cold pool never filled.
const warmTimeout = 5 * time.Second

// warm fills the masters' connection pools before the load starts: conns
// concurrent no-op commands per master (a release of a key nobody holds,
// which also loads the script). Without it a strategy that asks every master
// at once for every worker (fanout) opened workers × N connections inside
// its first budgets; measured through the 1 ms --rtt proxy at 64 workers,
// every one of those dials timed out and the cell never acquired. Failures
// are ignored: a colder pool is all they leave.
func warm(ctx context.Context, nodes []multiplex.Node, conns int) {
	var wg sync.WaitGroup
	for _, n := range nodes {
		for range max(conns, 1) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wctx, cancel := context.WithTimeout(ctx, warmTimeout)
				defer cancel()
				_ = n.Do(wctx, multiplex.Cmd{Kind: multiplex.Release, Key: "lockbench:warm", Token: "-"})
			}()
		}
	}
	wg.Wait()
}
