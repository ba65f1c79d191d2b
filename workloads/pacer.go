package workloads

import "context"

// pacer says when a worker starts its next cycle. It returns the cycle's
// intended start on the run clock (latencies are measured from it, so a
// stall is not hidden), or false when the run is over.
type pacer interface {
	Next(ctx context.Context, worker int) (intended int64, ok bool)
}

// closedLoop starts the next cycle as soon as the last one ended.
type closedLoop struct{ now func() int64 }

func (p closedLoop) Next(ctx context.Context, _ int) (int64, bool) {
	if ctx.Err() != nil {
		return 0, false
	}
	return p.now(), true
}
