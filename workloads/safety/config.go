package safety

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/fielderr"
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

// DefaultBackends are the backends of the default grid.
func DefaultBackends() []string { return []string{"redlock", "etcd"} }

// Config is a safety sweep: for every backend, ratio and fencing mode one
// point, a contended workload measured until Grants grants (or PointLimit).
// The zero value is the defaults (DefaultConfig); it is written into the
// results.
type Config struct {
	// Fault is a comma list of kinds (FaultNames) or "all".
	Fault    string   `json:"fault" flag:"fault" help:"the faults swept, comma-separated, or all: pause (the holder stops between its writes for ratio × TTL), clock-jump (one master's clock jumps ahead by ratio × TTL), clock-drift (one master's clock runs fast by ratio), delay (a minority of servers answers ratio × TTL late), restart (a majority of masters crashes and comes back empty after ratio × TTL), failover (the single backend's master stops replicating, crashes ratio × TTL later and its replica is promoted), failover-wait (the same, each grant acknowledged by the replica with WAIT 1)"`
	Backends []string `json:"backends" flag:"backends" help:"backends to measure, comma-separated, NAME or NAME/CLIENT (redlock/rueidis), or all; a fault that does not apply to one is skipped, the plan line says why"`
	// Ratios are the magnitudes of every fault swept; empty: each fault's
	// own grid.
	Ratios  Ratios  `json:"ratios" flag:"ratios" help:"fault magnitudes ÷ TTL, comma-separated (a pause of 2 is twice the TTL); default: each fault's own grid (pause 0.1,0.5,0.9,1.1,2; clock-jump 0.01,0.1,0.5,1; clock-drift 0.001,0.01,0.1; delay 0.1,0.5,1; restart 0,0.5,1; failover 0,0.1,0.25,0.5,1; failover-wait 0,0.1,0.25,0.5,1)"`
	Fencing Fencing `json:"fencing" flag:"fencing" help:"whether the resource refuses writes with an older token: off | on | both (each point both ways)"`
	// Grants is the budget of each point: it ends after this many grants.
	Grants int `json:"grants" flag:"grants" help:"grants per point; a point with no violation bounds the rate at 3/grants (3×10⁶ grants for 1 per 10⁶)"`
	// PointLimit bounds one point's time; a point that ends on it
	// reports the grants it had (Point.Short).
	PointLimit time.Duration `json:"point_limit" flag:"point-limit" help:"most time one point may take; it then reports the grants it had"`
	TTL        time.Duration `json:"ttl" flag:"ttl" help:"lock TTL of every backend (etcd: whole seconds, at least its minimum lease TTL of 2s)"`
	// Keys is how many keys the workers contend on; each key has the
	// fault's workers (fault.WorkersPerKey), so one is always waiting.
	Keys       int           `json:"keys" flag:"keys" help:"keys contended on; each gets ⌈ratio⌉+1 workers under a pause, 3 under a clock jump, 2 otherwise"`
	RetryDelay time.Duration `json:"retry_delay" flag:"retry-delay" help:"wait between a worker's lock attempts"`
}

// DefaultConfig is the default grid: the pause at 0.1 to 2 TTLs on Redlock
// and etcd, with and without fencing, 200 grants a point.
func DefaultConfig() Config { return Config{}.withDefaults() }

// faults are c's kinds; c.Fault must have passed Validate.
func (c Config) faults() []fault {
	fs, _ := parseFaults(c.Fault)
	return fs
}

// ratios are the magnitudes swept of f.
func (c Config) ratios(f fault) Ratios {
	if len(c.Ratios) > 0 {
		return c.Ratios
	}
	return f.Ratios
}

func (c Config) withDefaults() Config {
	if c.Fault == "" {
		c.Fault = FaultPause
	}
	if len(c.Backends) == 0 {
		c.Backends = DefaultBackends()
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
// *fielderr.Error naming it ("fault", "ratios", "backends", "ttl").
func (c Config) Validate() error {
	c = c.withDefaults()
	fs, err := parseFaults(c.Fault)
	if err != nil {
		return &fielderr.Error{Field: "fault", Value: fmt.Sprintf("%q", c.Fault), Err: err}
	}
	switch {
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
	for _, f := range fs {
		most := cmp.Or(f.MaxRatio, maxRatio)
		for _, r := range c.ratios(f) {
			if !(r > 0 || r == 0 && f.ZeroOK) || math.IsInf(r, 0) || r > most {
				lo := "("
				if f.ZeroOK {
					lo = "["
				}
				return fielderr.Invalid("ratios", r, "each must be in %s0, %g] for %s", lo, most, f.Name)
			}
		}
	}
	var empty error // the first backend no fault swept applies to
	for _, name := range c.backendEntries() {
		b, err := backendOf(name)
		if err != nil {
			return err
		}
		var skips []string
		for _, f := range fs {
			if why := f.Skip(b.Backend); why != "" {
				skips = append(skips, f.Name+": "+why)
			}
		}
		if len(skips) == len(fs) {
			if empty == nil {
				empty = fielderr.Invalid("backends", name, "no fault swept applies (%s)", strings.Join(skips, "; "))
			}
			continue // skipped, the plan says why
		}
		if b.On == backends.Etcd && (c.TTL%time.Second != 0 || c.TTL < defaultTTL) {
			return fielderr.Invalid("ttl", c.TTL, "%s leases count whole seconds, at least %v here: a ratio of another TTL would lie", name, defaultTTL)
		}
	}
	if len(c.points()) == 0 {
		return empty
	}
	return nil
}

// maxRatio bounds a magnitude: a pause has ⌈ratio⌉+1 workers a key, and a
// point lasts a pause at least.
const maxRatio = 20

// BackendsAll in --backends is every backend, and Redlock over each of
// its client libraries.
const BackendsAll = "all"

func (c Config) allBackends() bool { return len(c.Backends) == 1 && c.Backends[0] == BackendsAll }

// backendEntries are c's --backends entries, "all" spelt out: every
// registered backend, and Redlock over its other client libraries.
func (c Config) backendEntries() []string {
	if !c.allBackends() {
		return c.Backends
	}
	var out []string
	for _, name := range backends.Names() {
		out = append(out, name)
		b, _ := backends.Lookup(name)
		for _, client := range b.Clients[min(1, len(b.Clients)):] { // the first is the default
			out = append(out, name+"/"+client)
		}
	}
	return out
}

// backend is one --backends entry: a registered backend and, for one
// with a choice of client library, the client ("redlock/rueidis").
type backend struct {
	backends.Backend
	Client string // "": the default
}

// backendOf reads a --backends entry.
func backendOf(entry string) (backend, error) {
	name, client, _ := strings.Cut(entry, "/")
	b, ok := backends.Lookup(name)
	if !ok {
		return backend{}, fielderr.Invalid("backends", entry, "unknown (have %s)", strings.Join(backends.Names(), ", "))
	}
	if client != "" && !slices.Contains(b.Clients, client) {
		if len(b.Clients) == 0 {
			return backend{}, fielderr.Invalid("backends", entry, "%s has no choice of client library", name)
		}
		return backend{}, fielderr.Invalid("backends", entry, "client %q unknown for %s (have %s)", client, name, strings.Join(b.Clients, ", "))
	}
	return backend{Backend: b, Client: client}, nil
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

// points are the grid in the order measured: fault, backend, ratio,
// fencing; the (fault, backend) pairs the fault does not apply to are
// left out (skipped says why).
func (c Config) points() []pointSpec {
	var ps []pointSpec
	for _, f := range c.faults() {
		for _, name := range c.backendEntries() {
			b, _ := backendOf(name)
			if f.Skip(b.Backend) != "" {
				continue
			}
			for _, r := range c.ratios(f) {
				for _, on := range c.Fencing.modes() {
					ps = append(ps, pointSpec{Fault: f.Name, Backend: name, Ratio: r, Fencing: on})
				}
			}
		}
	}
	return ps
}

// skipped are the (fault, backend) pairs of the grid the fault does not
// apply to, each with the reason.
func (c Config) skipped() []string {
	var out []string
	for _, f := range c.faults() {
		for _, name := range c.backendEntries() {
			b, _ := backendOf(name)
			if why := f.Skip(b.Backend); why != "" {
				out = append(out, fmt.Sprintf("%s on %s (%s)", f.Name, name, why))
			}
		}
	}
	return out
}

// pointSpec is one point of the grid.
type pointSpec struct {
	Fault   string
	Backend string // a --backends entry
	Ratio   float64
	Fencing bool
}

// kind is the point's fault.
func (p pointSpec) kind() fault { return faultKinds[p.Fault] }

// workers is how many workers contend in the point.
func (c Config) workers(p pointSpec) int { return c.Keys * p.kind().WorkersPerKey(p.Ratio) }

// pause is how long the point's holders stop between their writes; ok
// false: until their lease's validity ends.
func (c Config) pause(p pointSpec) (d time.Duration, ok bool) {
	if f := p.kind().Pause; f != nil {
		return f(c, p.Ratio), true
	}
	return 0, false
}

// Estimate is how long the grid should take, from each fault's time per
// grant of a key (or its MinSpan, if longer); each point ends within
// PointLimit and drains its last holders. Servers' start-up comes on top.
func (c Config) Estimate() (typical, most time.Duration) {
	c = c.withDefaults()
	for _, p := range c.points() {
		drain, ok := c.pause(p)
		if !ok {
			drain = c.TTL
		}
		b, _ := backendOf(p.Backend)
		cycle := p.kind().Cycle(c, b.Backend, p.Ratio)
		run := time.Duration(float64(c.Grants) / float64(c.Keys) * float64(cycle))
		if f := p.kind(); f.MinSpan != nil {
			run = max(run, f.MinSpan(faultPoint{Config: c, Ratio: p.Ratio, LockServers: 1}))
		}
		typical += min(run, c.PointLimit) + drain
		most += c.PointLimit + drain
	}
	return typical, most
}

// Plan is the one line saying what the grid is, how long it takes, and
// which faults it skips on which backend, and why.
func (c Config) Plan() string {
	c = c.withDefaults()
	typ, most := c.Estimate()
	var fencing []string
	for _, f := range c.Fencing.modes() {
		fencing = append(fencing, fencingName(f))
	}
	var grid []string
	for _, f := range c.faults() {
		var on []string
		for _, name := range c.backendEntries() {
			if b, _ := backendOf(name); f.Skip(b.Backend) == "" {
				on = append(on, name)
			}
		}
		if rs := c.ratios(f); len(on) > 0 {
			grid = append(grid, fmt.Sprintf("%s %s ÷ TTL on %s", f.Name, rs.String(), strings.Join(on, ",")))
		}
	}
	s := fmt.Sprintf("safety: %s × fencing %s = %d points of %d grants: about %v (at most %v) plus server start-up; a bound of 1 per 10⁶ would need %d grants a point",
		strings.Join(grid, "; "), strings.Join(fencing, ","), len(c.points()), c.Grants,
		typ.Round(time.Second), most.Round(time.Second), GrantsForBound(1))
	if sk := c.skipped(); len(sk) > 0 {
		s += "; skipped: " + strings.Join(sk, "; ")
	}
	return s
}

func fencingName(on bool) string {
	if on {
		return string(FencingOn)
	}
	return string(FencingOff)
}
