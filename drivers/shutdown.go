package drivers

import (
	"context"
	"time"
)

type shutdownKey struct{}

// ShuttingDown marks ctx as carrying work done after the measured run ended
// (a release that frees a key for whoever runs next). Its failures are not
// the run's: drivers keep them out of their error logs, as they do replies
// cut short by a canceled context. Shutdown is not failure.
func ShuttingDown(ctx context.Context) context.Context {
	return context.WithValue(ctx, shutdownKey{}, true)
}

// IsShutdown reports whether ctx ended or was marked by ShuttingDown. A
// deadline that has passed counts as ended even before ctx's own timer has
// fired: a command bounded by that deadline (multiplex budgets read it)
// reports DeadlineExceeded at once, while ctx.Err() may still be nil for a
// moment; without this, the end of every run showed as errors.
func IsShutdown(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return true
	}
	v, _ := ctx.Value(shutdownKey{}).(bool)
	return v
}
