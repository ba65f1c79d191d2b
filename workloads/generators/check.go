package generators

import (
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Check resolves c (Resolve) and checks it against the cell every
// generator measures, before anything starts: the masters' TIME is the
// generators' common clock, so the cell drives Redis masters every
// generator reaches. Errors name fields (fielderr).
func (c *Config) Check(cell lab.Config) error {
	if err := c.Resolve(); err != nil {
		return err
	}
	if !c.On() {
		if len(c.Thresholds) > 0 {
			return &fielderr.Error{Field: "thresholds", Value: fmt.Sprintf("%q", c.Thresholds[0]),
				Err:  errors.New("judged on the merged run of several generators"),
				Hint: "needs %s above 1; a single run is gated by lockbench gate", HintField: "generators"}
		}
		return nil
	}
	if _, err := gate.ParseThresholds(c.Thresholds); err != nil {
		return err
	}
	b, _ := backends.Lookup(cell.Driver.Backend)
	switch {
	case !b.Uses(backends.Redis):
		return fielderr.Invalid("generators", c.Generators, "backend %s has no Redis masters, whose TIME is the generators' common clock", cell.Driver.Backend)
	case len(cell.Topology.RedisAddrs) == 0:
		return &fielderr.Error{Field: "generators", Value: fmt.Sprint(c.Generators),
			Err: errors.New("needs the masters every generator drives"), Hint: "give them with %s", HintField: "topology.redis_addrs"}
	}
	return nil
}

// CheckCompare is Check for a compare's plan: every cell drives the
// masters every generator reaches, and what one process measures alone
// (a ceiling, a delay line of its own) is refused.
func (c *Config) CheckCompare(p *compare.Plan) error {
	if err := c.Check(p.Config.Base); err != nil || !c.On() {
		return err
	}
	switch {
	case p.Config.Ceiling:
		return fielderr.Invalid("ceiling", nil, "cannot be measured by several generators (each would run redis-benchmark on its own)")
	case len(p.Config.RTTs) > 0:
		return fielderr.Invalid("rtts", nil, "cannot be added by several generators (each would add its own delay line)")
	}
	for _, cell := range p.Cells {
		if b, ok := backends.Lookup(cell.Config.Driver.Backend); ok && !b.Uses(backends.Redis) {
			return fielderr.Invalid("baselines", cell.Config.Driver.Backend, "not with several generators (every cell must drive the masters every generator reaches)")
		}
	}
	return nil
}
