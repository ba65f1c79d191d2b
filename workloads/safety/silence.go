package safety

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// A holder that pauses in-process stops only its own goroutine. A lock
// the client library keeps alive on its own (a ZooKeeper session's
// heartbeats, a PostgreSQL session, a library that extends its lock from a
// goroutine of its own) outlives such a pause, where a stopped process
// sends nothing at all. So for those locks each worker gets a locker of
// its own that dials the lock's servers through proxies of its own, and a
// pause holds everything through them, both ways, for its length, then
// delivers it in order, as a stopped process's kernel buffers its
// sockets: the holder is as silent as a stopped process, and as deaf,
// and no byte is lost (a dropped one would leave a pipelined connection
// waiting for a reply that never comes).

// silenced are the lockers of a point's workers, one each, behind proxies
// of their own.
type silenced struct {
	lockers []drivers.Locker
	proxies []*compose.Proxies
}

// silence holds everything through a proxy, both ways, until removed:
// a latency far beyond any pause, and toxiproxy delivers what a latency
// toxic holds when it is removed.
var silence = []compose.Toxic{
	{Name: "silence-down", Type: "latency", Stream: "downstream", Attributes: map[string]any{"latency": holdMS}},
	{Name: "silence-up", Type: "latency", Stream: "upstream", Attributes: map[string]any{"latency": holdMS}},
}

// holdMS is the silence's latency: a day, in milliseconds.
const holdMS = 24 * 60 * 60 * 1000

// openSilenced opens workers lockers of spec, each on at's lock servers
// through proxies of its own.
func openSilenced(ctx context.Context, spec backends.Spec, b backends.Backend, at backends.Endpoints, workers int) (_ *silenced, err error) {
	s := &silenced{}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	spec.Workers = 1
	for range workers {
		p, via, err := proxied(b, at)
		if err != nil {
			return nil, err
		}
		s.proxies = append(s.proxies, p)
		l, err := backends.Open(ctx, spec, via)
		if err != nil {
			return nil, err
		}
		s.lockers = append(s.lockers, l)
	}
	return s, nil
}

// proxied starts a proxy in front of each of at's servers of b's kind and
// returns at dialing them instead.
func proxied(b backends.Backend, at backends.Endpoints) (*compose.Proxies, backends.Endpoints, error) {
	via := at
	var addrs []string
	var dialVia func(front []string) error // points via at the proxies
	switch b.On {
	case backends.Redis:
		for _, m := range at.Masters {
			addrs = append(addrs, m.Addr)
		}
		dialVia = func(front []string) error {
			via.Masters = make([]redisconn.Endpoint, len(at.Masters))
			for i, m := range at.Masters {
				via.Masters[i] = m.Via(front[i])
			}
			return nil
		}
	case backends.Etcd:
		addrs, dialVia = at.Etcd, func(front []string) error { via.Etcd = front; return nil }
	case backends.ZooKeeper:
		addrs, dialVia = at.ZooKeeper, func(front []string) error { via.ZooKeeper = front; return nil }
	case backends.Postgres:
		u, err := url.Parse(at.Postgres)
		if err != nil || u.Host == "" {
			return nil, at, fmt.Errorf("safety: no PostgreSQL host:port in its URL to put a proxy in front of")
		}
		addrs = []string{u.Host}
		dialVia = func(front []string) (err error) {
			via.Postgres, err = compose.PostgresURLVia(at.Postgres, front[0])
			return err
		}
	default:
		return nil, at, fmt.Errorf("safety: a %s holder cannot be silenced", b.On)
	}
	p, err := compose.StartProxies(addrs)
	if err != nil {
		return nil, at, err
	}
	if err := dialVia(p.Addrs()); err != nil {
		_ = p.Close()
		return nil, at, err
	}
	return p, via, nil
}

// hush silences worker id's proxies; the func returned lets them speak
// again.
func (s *silenced) hush(id int) (speak func(), err error) {
	p := s.proxies[id]
	speak = func() {
		for i := range p.Len() {
			for _, t := range silence {
				_ = p.RemoveToxic(i, t.Name)
			}
		}
	}
	for i := range p.Len() {
		for _, t := range silence {
			if err := p.AddToxic(i, t); err != nil {
				speak()
				return nil, fmt.Errorf("safety: silence worker %d: %w", id, err)
			}
		}
	}
	return speak, nil
}

func (s *silenced) Close() error {
	var errs []error
	for _, l := range s.lockers {
		errs = append(errs, l.Close())
	}
	for _, p := range s.proxies {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}
