package workloads

import (
	"context"
	"errors"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/schema"
)

// maxReleaseRetries bounds --release-retry: a release that failed is tried
// again at most this many times, and only while the lease is still valid.
const maxReleaseRetries = 3

// release unlocks lease and records each try. With cfg.ReleaseRetry a
// release that failed with its outcome unknown (an error or a timeout, not
// "the lock was gone") is tried again after a pause of up to the retry
// delay, while the lease's validity lasts, at most MaxReleaseRetries times:
// the release is compare-and-delete, so a retry frees a key the lost try
// left held instead of leaving it to its TTL, and never frees another's.
// Off by default: the default is the algorithm as published, which
// releases once.
func (w *worker) release(ctx context.Context, lease drivers.Lease, rs int64) (end int64, err error) {
	clock := w.env.Clock
	for try := 0; ; try++ {
		err = lease.Unlock(ctx)
		end = clock.Now()
		if ctx.Err() != nil && err != nil {
			return end, err // cut short by the run's end: not recorded
		}
		w.rec.Record(schema.OpRelease, releaseOutcome(err), rs, rs, end)
		if !w.retryRelease(ctx, err, try, lease.ValidUntil()) {
			return end, err
		}
		rs = clock.Now()
	}
}

// retryRelease: try again after err (try tries so far), having paused.
func (w *worker) retryRelease(ctx context.Context, err error, try int, validUntil time.Time) bool {
	if !w.cfg.ReleaseRetry || err == nil || errors.Is(err, drivers.ErrNotHeld) || try >= maxReleaseRetries {
		return false
	}
	var d time.Duration
	if w.cfg.RetryDelay > 0 {
		d = time.Duration(w.rnd.Int64N(int64(w.cfg.RetryDelay)))
	}
	if time.Until(validUntil) <= d {
		return false // the key expires before the retry: nothing left to free
	}
	return d == 0 || w.pause(ctx, d)
}

func releaseOutcome(err error) schema.Outcome {
	switch {
	case err == nil:
		return schema.OK
	case errors.Is(err, drivers.ErrNotHeld):
		return schema.Timeout // the lock had expired before the release
	}
	return schema.Error
}
