package safety

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// cutOff is a locker whose connections to some masters are reset: the
// reset fault of compose/faults played on proxies in front of the masters
// for this locker alone, once it is open (a client that dials as it opens,
// rueidis, opens as usual and loses those masters after).
type cutOff struct {
	drivers.Locker
	proxies *compose.Proxies
	sched   *faults.Schedule
}

// openCutOff opens spec's locker on at's masters, cut off from masters
// (1-based).
func openCutOff(ctx context.Context, spec backends.Spec, at backends.Endpoints, masters []int) (_ *cutOff, err error) {
	addrs := make([]string, len(at.Masters))
	for i, m := range at.Masters {
		addrs[i] = m.Addr
	}
	p, err := compose.StartProxies(addrs)
	if err != nil {
		return nil, err
	}
	c := &cutOff{proxies: p}
	defer func() {
		if err != nil {
			_ = c.Close()
		}
	}()
	via := at
	via.Masters = make([]redisconn.Endpoint, len(at.Masters))
	for i, m := range at.Masters {
		via.Masters[i] = m.Via(p.Addrs()[i])
	}
	if c.Locker, err = backends.Open(ctx, spec, via); err != nil {
		return nil, err
	}
	var which []string
	for _, m := range masters {
		which = append(which, fmt.Sprint(m))
	}
	fs, _, err := faults.ParseAll([]string{"reset:masters=" + strings.Join(which, ",")})
	if err != nil {
		return nil, err
	}
	c.sched = faults.Start(ctx, fs, faults.Target{Proxies: p})
	// The schedule plays at once, on its own goroutine: wait for it, so
	// the cut is in place before the first attempt.
	for len(c.sched.Events()) < len(masters) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		time.Sleep(time.Millisecond)
	}
	for _, e := range c.sched.Events() {
		if e.Err != "" {
			return nil, fmt.Errorf("safety: cut off master %d: %s", e.Master, e.Err)
		}
	}
	return c, nil
}

func (c *cutOff) Close() error {
	var err error
	if c.Locker != nil {
		err = c.Locker.Close()
	}
	if c.sched != nil {
		c.sched.Stop()
	}
	_ = c.proxies.Close()
	return err
}
