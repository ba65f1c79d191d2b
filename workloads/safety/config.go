package safety

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/fielderr"
)

// Faults a sweep can play, by Config.Fault.
const (
	// FaultPause stops the holder between its grant and its write for
	// ratio × TTL, as a GC pause or a page fault does.
	FaultPause = "pause"
)

// Fencing is whether the resource checks tokens: FencingOff, FencingOn, or
// FencingBoth (each point measured both ways).
type Fencing string

const (
	FencingOff  Fencing = "off"
	FencingOn   Fencing = "on"
	FencingBoth Fencing = "both"
)

// modes are the fencing settings measured, off before on.
func (f Fencing) modes() []bool {
	switch f {
	case FencingOn:
		return []bool{true}
	case FencingBoth:
		return []bool{false, true}
	}
	return []bool{false}
}

// Defaults of the zero Config.
const (
	// defaultTTL is the local etcd members' minimum lease TTL (3/2 of the
	// election timeout, rounded up to whole seconds): one TTL for every
	// backend, so a ratio means the same pause everywhere.
	defaultTTL        = 2 * time.Second
	defaultGrants     = 200
	defaultKeys       = 16
	defaultRetryDelay = 50 * time.Millisecond
	defaultPointLimit = 40 * time.Second
)

// DefaultRatios are the holder pauses of the default grid, ÷ TTL.
func DefaultRatios() Ratios { return Ratios{0.1, 0.5, 0.9, 1.1, 2} }

// DefaultBackends are the backends of the default grid.
func DefaultBackends() []string { return []string{"redlock", "etcd"} }

// Config is a safety sweep: for every backend, ratio and fencing mode one
// point, a contended workload measured until Grants grants (or PointLimit).
// The zero value is the defaults (DefaultConfig); it is written into the
// results.
type Config struct {
	Fault    string   `json:"fault" flag:"fault" help:"the fault swept: pause (the holder stops between its grant and its write for ratio × TTL)"`
	Backends []string `json:"backends" flag:"backends" help:"backends to measure, comma-separated (those whose locks live on Redis masters or etcd)"`
	Ratios   Ratios   `json:"ratios" flag:"ratios" help:"fault magnitudes ÷ TTL, comma-separated (a pause of 2 is twice the TTL)"`
	Fencing  Fencing  `json:"fencing" flag:"fencing" help:"whether the resource refuses writes with an older token: off | on | both (each point both ways)"`
	// Grants is the budget of each point: it ends after this many grants.
	Grants int `json:"grants" flag:"grants" help:"grants per point; a point with no violation bounds the rate at 3/grants (3×10⁶ grants for 1 per 10⁶)"`
	// PointLimit bounds one point's time; a point that ends on it
	// reports the grants it had (Point.Short).
	PointLimit time.Duration `json:"point_limit" flag:"point-limit" help:"most time one point may take; it then reports the grants it had"`
	TTL        time.Duration `json:"ttl" flag:"ttl" help:"lock TTL of every backend (etcd: whole seconds, at least its minimum lease TTL of 2s)"`
	// Keys is how many keys the workers contend on; each key has
	// ⌈ratio⌉+1 workers, so one is always waiting while the others pause.
	Keys       int           `json:"keys" flag:"keys" help:"keys contended on; each gets ⌈ratio⌉+1 workers"`
	RetryDelay time.Duration `json:"retry_delay" flag:"retry-delay" help:"wait between a worker's lock attempts"`
}

// DefaultConfig is the default grid: the pause at 0.1 to 2 TTLs on Redlock
// and etcd, with and without fencing, 200 grants a point.
func DefaultConfig() Config { return Config{}.withDefaults() }

func (c Config) withDefaults() Config {
	if c.Fault == "" {
		c.Fault = FaultPause
	}
	if len(c.Backends) == 0 {
		c.Backends = DefaultBackends()
	}
	if len(c.Ratios) == 0 {
		c.Ratios = DefaultRatios()
	}
	if c.Fencing == "" {
		c.Fencing = FencingBoth
	}
	if c.Grants == 0 {
		c.Grants = defaultGrants
	}
	if c.PointLimit == 0 {
		c.PointLimit = defaultPointLimit
	}
	if c.TTL == 0 {
		c.TTL = defaultTTL
	}
	if c.Keys == 0 {
		c.Keys = defaultKeys
	}
	if c.RetryDelay == 0 {
		c.RetryDelay = defaultRetryDelay
	}
	return c
}

// Validate reports the first field the sweep cannot run with, as a
// *fielderr.Error naming it ("ratios", "backends", "ttl").
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Fault != FaultPause:
		return fielderr.Invalid("fault", c.Fault, "want %s (the only fault swept so far)", FaultPause)
	case c.Fencing != FencingOff && c.Fencing != FencingOn && c.Fencing != FencingBoth:
		return fielderr.Invalid("fencing", string(c.Fencing), "want off, on or both")
	case c.Grants < 1:
		return fielderr.Invalid("grants", c.Grants, "must be at least 1")
	case c.PointLimit <= 0:
		return fielderr.Invalid("point_limit", c.PointLimit, "must be positive")
	case c.TTL <= 0:
		return fielderr.Invalid("ttl", c.TTL, "must be positive")
	case c.Keys < 1:
		return fielderr.Invalid("keys", c.Keys, "must be at least 1")
	case c.RetryDelay <= 0:
		return fielderr.Invalid("retry_delay", c.RetryDelay, "must be positive")
	}
	for _, r := range c.Ratios {
		if !(r > 0) || math.IsInf(r, 0) || r > maxRatio {
			return fielderr.Invalid("ratios", r, "each must be in (0, %g]", float64(maxRatio))
		}
	}
	for _, name := range c.Backends {
		if err := checkBackend(name, c.TTL); err != nil {
			return err
		}
	}
	return nil
}

// maxRatio bounds a pause: ⌈ratio⌉+1 workers a key, and a point lasts a
// pause at least.
const maxRatio = 20

// checkBackend refuses a backend the pause cannot be measured on: one
// whose lease outlives an in-process pause (a ZooKeeper session or a
// PostgreSQL connection stays alive while the holder sleeps, so the lock
// never lapses; measuring them needs the holder silenced, which this sweep
// does not do yet), and a TTL etcd would silently round.
func checkBackend(name string, ttl time.Duration) error {
	b, ok := backends.Lookup(name)
	if !ok {
		return fielderr.Invalid("backends", name, "unknown (have %s)", strings.Join(backends.Names(), ", "))
	}
	switch b.On {
	case backends.Redis:
	case backends.Etcd:
		if ttl%time.Second != 0 || ttl < defaultTTL {
			return fielderr.Invalid("ttl", ttl, "%s leases count whole seconds, at least %v here: a ratio of another TTL would lie", name, defaultTTL)
		}
	default:
		return fielderr.Invalid("backends", name, "its locks live on %s, whose lease does not lapse while an in-process holder pauses: not measured by this sweep", b.On)
	}
	return nil
}

// Ratios are fault magnitudes ÷ TTL, a flag value of comma-separated
// numbers.
type Ratios []float64

func (r *Ratios) Set(s string) error {
	var out Ratios
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("%q: not a number", f)
		}
		out = append(out, v)
	}
	*r = out
	return nil
}

func (r *Ratios) String() string {
	parts := make([]string, len(*r))
	for i, v := range *r {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func (*Ratios) Type() string { return "ratios" }

// points are the grid in the order measured: backend, ratio, fencing.
func (c Config) points() []pointSpec {
	var ps []pointSpec
	for _, b := range c.Backends {
		for _, r := range c.Ratios {
			for _, f := range c.Fencing.modes() {
				ps = append(ps, pointSpec{Backend: b, Ratio: r, Fencing: f})
			}
		}
	}
	return ps
}

// pointSpec is one point of the grid.
type pointSpec struct {
	Backend string
	Ratio   float64
	Fencing bool
}

// workersPerKey keeps a key busy: while ⌈ratio⌉ holders pause, one more
// waits to be granted as the oldest lease lapses.
func workersPerKey(ratio float64) int { return int(math.Ceil(ratio)) + 1 }

// pause is the injected pause of ratio.
func (c Config) pause(ratio float64) time.Duration {
	return time.Duration(ratio * float64(c.TTL))
}

// Estimate is how long the grid should take, from the grants a key gives
// per second: one per pause while the pause is shorter than the TTL, else
// one per TTL (a waiting worker is granted as each paused holder's lease
// lapses); each point ends within PointLimit and drains its last pauses.
// Servers' start-up comes on top.
func (c Config) Estimate() (typical, most time.Duration) {
	c = c.withDefaults()
	for _, p := range c.points() {
		pause := c.pause(p.Ratio)
		cycle := c.TTL + c.RetryDelay/2
		if p.Ratio < 1 {
			cycle = pause + c.RetryDelay/2 + 5*time.Millisecond
		}
		run := time.Duration(float64(c.Grants) / float64(c.Keys) * float64(cycle))
		typical += min(run, c.PointLimit) + pause
		most += c.PointLimit + pause
	}
	return typical, most
}

// Plan is the one line saying what the grid is and how long it takes.
func (c Config) Plan() string {
	c = c.withDefaults()
	typ, most := c.Estimate()
	var fencing []string
	for _, f := range c.Fencing.modes() {
		fencing = append(fencing, fencingName(f))
	}
	return fmt.Sprintf("safety: %s × %d ratios × fencing %s = %d points of %d grants: about %v (at most %v) plus server start-up; a bound of 1 per 10⁶ would need %d grants a point",
		strings.Join(c.Backends, ","), len(c.Ratios), strings.Join(fencing, ","), len(c.points()), c.Grants,
		typ.Round(time.Second), most.Round(time.Second), GrantsForBound(1))
}

func fencingName(on bool) string {
	if on {
		return string(FencingOn)
	}
	return string(FencingOff)
}
