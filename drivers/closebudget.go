package drivers

import (
	"fmt"
	"time"
)

// CloseBudget bounds a Locker's Close. Some clients' Close waits for what
// is in flight — a connection pool for every connection in use to come
// back, rueidis for its pending calls — and with a frozen server that can
// be forever: a worker blocked in a call, a lease never released. Past
// the budget Close returns and the server is left to end the sessions
// when the process exits (their locks with them).
const CloseBudget = 2 * time.Second

// CloseWithin runs closeFn and waits for it at most CloseBudget; past it
// the error says what was left (what: the client, e.g. "pglock") and
// closeFn finishes on its own, if ever.
func CloseWithin(what string, closeFn func() error) error {
	done := make(chan error, 1)
	go func() { done <- closeFn() }()
	t := time.NewTimer(CloseBudget)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("%s: close: still waiting for calls or connections in use after %v (a server that stopped answering?): left behind", what, CloseBudget)
	}
}
