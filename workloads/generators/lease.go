package generators

import (
	"context"
	"fmt"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// leaseTTL is how long a generator's keys outlive its last keepalive: a
// generator killed outright is noticed by the others within about this.
// Keepalives go every third of it, so a generator whose process is not
// scheduled for this long (a machine at a load of several times its
// cores, a stop-the-world pause, a network hiccup) is taken for dead and
// the run is aborted: 2 s lapsed on a 2-core machine at a load of ~17.
const leaseTTL = 5

// storeWait bounds each call to the coordination store once the run is
// under way (a verdict, an abort; a whole result has publishWait): a
// store that does not answer within it is lost, and no generator waits on
// it for longer.
const storeWait = 5 * time.Second

// leaseProbe bounds the question why a lease's keepalives ended (is the
// lease still held?): the store has been silent for the lease already.
const leaseProbe = 2 * time.Second

// storeQuiet is how long without a keepalive answer (they come every
// third of the lease) the live view calls the store unreachable.
const storeQuiet = leaseTTL * time.Second / 2

// keepAlive drains the lease's keepalive answers. The client ends them
// when no answer came for the lease's TTL, or the store says the lease is
// gone; before Close, that ends this generator's part in the run: the
// store is asked once (leaseProbe) whether it still holds the lease, and
// the answer says whose loss it is (leaseEnded).
func (m *Member) keepAlive(ctx context.Context, alive <-chan *clientv3.LeaseKeepAliveResponse) {
	for {
		for range alive {
			m.answered.Store(time.Now().UnixNano())
		}
		if ctx.Err() != nil {
			return // Close
		}
		a, again := m.leaseEnded(ctx)
		if again != nil {
			alive = again // an answer late, the lease alive: keep it
			continue
		}
		m.abortLocal(a)
		close(m.cut)
		return
	}
}

// leaseEnded is why this generator's keepalives ended: this process was
// paused since the store's last answer (its lease lapsed while it could
// not keep it: the others take it for lost), or the store stopped
// answering a process that kept asking (the coordination store is lost to
// it; asked once more, leaseProbe). A lease the store still holds is kept
// alive again (again): an answer was only late.
func (m *Member) leaseEnded(ctx context.Context) (_ *AbortError, again <-chan *clientv3.LeaseKeepAliveResponse) {
	last := time.Unix(0, m.answered.Load())
	if m.paused(last) {
		expired := last.Add(leaseTTL * time.Second)
		return &AbortError{Kind: Lost, Generator: m.cfg.Index, At: expired,
			Reason: fmt.Sprintf("generator %d was cut off from the run: the process was paused past its lease (%d s); the others took it for lost", m.cfg.Index, leaseTTL)}, nil
	}
	ask, cancel := context.WithTimeout(ctx, leaseProbe)
	defer cancel()
	ttl, err := m.cli.TimeToLive(ask, m.lease)
	if err == nil && ttl.TTL > 0 {
		if again, err := m.cli.KeepAlive(ctx, m.lease); err == nil {
			return nil, again
		}
	}
	why := "its lease expired meanwhile"
	if err != nil {
		why = fmt.Sprintf("asked again, not within %v: %v", leaseProbe, err)
	}
	return &AbortError{Kind: Coordination, Generator: -1, At: last,
		Reason: fmt.Sprintf("the coordination etcd %s stopped answering this generator after %s (%s)", strings.Join(m.cfg.Coord, ","), clock(last), why)}, nil
}

// pauses notes when this process resumes from a pause (frozeUntil): a
// ticker that finds far more time gone than its period was not run. A
// lease that lapsed across such a pause is this generator's loss, not the
// store's.
func (m *Member) pauses(ctx context.Context) {
	const period = 100 * time.Millisecond
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if now.Sub(time.Unix(0, m.ticked.Load())) >= storeQuiet {
			m.frozeUntil.Store(now.UnixNano())
		}
		m.ticked.Store(now.UnixNano())
	}
}

// paused reports whether this process was paused since since: a pause
// pauses has seen end after it, or one it has not seen end yet (its
// ticker not run since this process resumed).
func (m *Member) paused(since time.Time) bool {
	return time.Unix(0, m.frozeUntil.Load()).After(since) || time.Since(time.Unix(0, m.ticked.Load())) >= storeQuiet
}

// clock is t as a time of day, to the millisecond.
func clock(t time.Time) string { return t.UTC().Format("15:04:05.000") + " UTC" }

// UnreachableSince is when the coordination store last answered, while
// it has not answered for storeQuiet or more (the zero time while it
// answers, and for a member holding no lease).
func (m *Member) UnreachableSince() time.Time {
	at := m.answered.Load()
	if at == 0 || time.Since(time.Unix(0, at)) < storeQuiet {
		return time.Time{}
	}
	return time.Unix(0, at)
}

// Settle waits, when the store has not answered for longer than the
// lease, until keepAlive has said why (at most leaseProbe and a second):
// after a pause of this process its lease is gone, and what it measured
// must say so before it is written.
func (m *Member) Settle(ctx context.Context) {
	if time.Since(time.Unix(0, m.answered.Load())) <= leaseTTL*time.Second {
		return
	}
	t := time.NewTimer(leaseProbe + time.Second)
	defer t.Stop()
	select {
	case <-m.cut:
	case <-t.C:
	case <-ctx.Done():
	}
}

// Cut reports whether this generator's part in the run has ended with its
// lease (the store lost, or this generator cut off): nothing more can be
// published or seen.
func (m *Member) Cut() bool {
	select {
	case <-m.cut:
		return true
	default:
		return false
	}
}

// untilCut is ctx, ended also when this generator's lease ends (Cut): a
// wait on the others' keys ends then, since none will come.
func (m *Member) untilCut(ctx context.Context) (context.Context, context.CancelFunc) {
	return endedBy(ctx, m.cut)
}
