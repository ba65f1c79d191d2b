package safety

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// fakeLocker is a lock service in memory: one holder per key until it
// unlocks or its TTL lapses, each grant with a fence one above the last.
// It is correct, so what goes wrong under a pause is the holder's.
type fakeLocker struct {
	ttl   time.Duration
	mu    sync.Mutex
	keys  map[string]fakeHold
	fence uint64
}

type fakeHold struct {
	fence   uint64
	expires time.Time
}

func newFakeLocker(ttl time.Duration) *fakeLocker {
	return &fakeLocker{ttl: ttl, keys: map[string]fakeHold{}}
}

func (f *fakeLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	if err := ctx.Err(); err != nil {
		return nil, drivers.Attempt{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if h, ok := f.keys[key]; ok && now.Before(h.expires) {
		return nil, drivers.Attempt{Masters: 1, HeldByOther: 1}, drivers.ErrBusy
	}
	f.fence++
	h := fakeHold{fence: f.fence, expires: now.Add(f.ttl)}
	f.keys[key] = h
	return &fakeLease{f: f, key: key, hold: h}, drivers.Attempt{Masters: 1, Won: 1, Validity: f.ttl}, nil
}

func (f *fakeLocker) Close() error { return nil }

type fakeLease struct {
	f    *fakeLocker
	key  string
	hold fakeHold
}

func (l *fakeLease) Unlock(context.Context) error {
	l.f.mu.Lock()
	defer l.f.mu.Unlock()
	if h, ok := l.f.keys[l.key]; !ok || h.fence != l.hold.fence || !time.Now().Before(h.expires) {
		return drivers.ErrNotHeld
	}
	delete(l.f.keys, l.key)
	return nil
}

func (l *fakeLease) Extend(context.Context, time.Duration) error { return drivers.ErrNotHeld }
func (l *fakeLease) ValidUntil() time.Time                       { return l.hold.expires }
func (l *fakeLease) Fence() uint64                               { return l.hold.fence }
