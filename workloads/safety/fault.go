package safety

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
)

// fault is one kind of fault a sweep plays, swept by its magnitude ÷ TTL.
// Each kind lives in a file of its own (fault_*.go) that registers it.
type fault struct {
	Name string
	// Means says what a magnitude of the fault does (Help).
	Means string
	// Ratios are the magnitudes of the default grid.
	Ratios Ratios
	// ZeroOK: a magnitude of 0 is a point of its own (a restart at once).
	ZeroOK bool
	// MaxRatio bounds the magnitudes; 0: maxRatio.
	MaxRatio float64
	// Skip is why the fault does not apply to b ("" when it does): it
	// must hit the servers b's lock lives on.
	Skip func(b backends.Backend) string
	// Servers adjusts the servers the fault's points run on (clockshift
	// under the masters); nil: the backend's own.
	Servers func(*compose.Spec)
	// FreshServers: every point gets servers of its own, because the fault
	// may leave one down when the point ends (a delayed restart not yet due).
	FreshServers bool
	// Plan is the compose/faults specs one point plays, times counted from
	// the point's start; nil plays none (the fault is the holder's).
	Plan func(p faultPoint) []string
	// Failover is when, counted from the point's start, the Sentinel's
	// master is killed (by Plan) and for how long before that it stops
	// replicating to its replica (what it writes then is lost with it; 0:
	// not at all); runPoint holds replication back and times the
	// promotion. nil: no failover.
	Failover func(p faultPoint) (killAt, hold time.Duration)
	// Spread starts each key's workers at a phase of their own, key k of
	// K after k/K of a TTL, so a fault played once at a fixed time meets
	// grants of every age (all keys granted at once would put every
	// holder at the same point of its validity when it comes).
	Spread bool
	// MinSpan is the least a point lasts, past its grant budget if need
	// be, so its fault has played out; nil: the budget alone.
	MinSpan func(p faultPoint) time.Duration
	// Driver adjusts the backend's settings for the fault's points; nil:
	// the sweep's own.
	Driver func(s *backends.Spec)
	// Silenced: on b, a pause silences the holder (silence.go): each
	// worker dials through proxies of its own, held for the pause. nil:
	// the pause is the holder goroutine's alone.
	Silenced func(b backends.Backend) bool
	// Pause is how long a holder stops between its entry and exit writes;
	// nil: until its lease's validity nearly ends (the holder uses all of
	// it but a margin, the most any lock promises).
	Pause func(c Config, ratio float64) time.Duration
	// CutOff are the masters (1-based) the first worker of each key cannot
	// reach, so its grants stand on a bare quorum; nil: none.
	CutOff func(lockServers int) []int
	// Counter is the master (1-based) of the fencing counter of a lock on
	// Redis masters; nil: the first. A fault that crashes the first
	// master moves it to one it leaves alone where there is one.
	Counter func(lockServers int) int
	// WorkersPerKey keeps a key contended.
	WorkersPerKey func(ratio float64) int
	// Cycle is about how long one grant of a key takes on b, for the
	// estimate.
	Cycle func(c Config, b backends.Backend, ratio float64) time.Duration
}

// faultPoint is what a fault's Plan needs of a point.
type faultPoint struct {
	Config
	Ratio float64
	// LockServers is how many servers the backend's lock lives on (the
	// masters for Redlock, 1 for a single-master library, the members for
	// etcd): what masters=N numbers.
	LockServers int
}

// magnitude is ratio × TTL.
func (p faultPoint) magnitude() time.Duration { return time.Duration(p.Ratio * float64(p.TTL)) }

// span is the most a point lasts: the time limit, then the holders'
// last cycle.
func (p faultPoint) span() time.Duration { return p.PointLimit + 2*p.TTL }

var faultKinds = map[string]fault{}

// registerFault adds a kind; called from the init of its file. A name
// registered twice panics: a programming error any test finds.
func registerFault(f fault) {
	if _, dup := faultKinds[f.Name]; dup {
		panic("safety: fault registered twice: " + f.Name)
	}
	if f.WorkersPerKey == nil {
		f.WorkersPerKey = func(float64) int { return 2 }
	}
	faultKinds[f.Name] = f
}

// FaultNames are the kinds, sorted: what --fault accepts beside "all".
func FaultNames() []string { return slices.Sorted(maps.Keys(faultKinds)) }

// help is what a safety sweep measures, in the words of the flags of
// Config's tags.
const help = `safety measures mutual exclusion as a rate. For every --fault, --backends backend, --ratios
magnitude and --fencing mode it runs a contended workload on local servers until --grants
grants, each holder writing to a fenced resource at the start and at the end of its critical
section. The faults, each a magnitude ÷ --ttl: pause (the holder stops between its two writes,
a GC-like pause), clock-jump (one master's wall clock jumps ahead once a TTL while the first
worker of each key reaches only a bare quorum), clock-drift (that master's wall clock runs fast
by the ratio instead), delay (a minority of the servers answers late, on the delay line),
restart (a majority of masters is killed and restarts empty after the magnitude; 0 is at once),
failover (the single backend's master stops replicating, is killed the magnitude later and the
Sentinel promotes its replica) and failover-wait (the same, each grant acknowledged with WAIT 1).
Under every fault but the pause a holder keeps its lease for its whole validity. A lock its
library keeps alive (a ZooKeeper or PostgreSQL session, rueidislock's extension) has each
paused holder silenced, as a stopped process is: every worker dials through proxies of its own,
which hold its traffic for the pause. --fault takes a comma list or all, --backends NAME,
NAME/CLIENT (redlock/rueidis) or all; a fault that does not apply to a backend is skipped, and
the plan line says why. A violation is a pair of overlapping grants (the referee) or a stale
write the resource accepted (a superseded holder's write landing after its successor's); with
fencing the resource refuses writes with a token older than the newest it has seen (Redis-based
locks: a counter INCRed with the grant; etcd: the lock's revision; ZooKeeper: the znode's
czxid; PostgreSQL: a sequence's next value). Each point reports violations per 10⁶ grants with
an exact 95 % Poisson interval, [0, 3/grants] when there were none. The plan line says how long
the grid takes. The yes/no experiments stay in 'lockbench scenario'.`

// Help is the account of lockbench safety: what a sweep measures, then a
// line per fault: its name, what a magnitude of it does and its default
// grid.
func Help() string {
	var b strings.Builder
	b.WriteString(help + "\n\nFaults:\n")
	for _, f := range mustFaults(FaultAll) {
		rs := f.Ratios
		fmt.Fprintf(&b, "  %-14s %s (default ratios %s)\n", f.Name, f.Means, rs.String())
	}
	return strings.TrimRight(b.String(), "\n")
}

func mustFaults(s string) []fault {
	fs, err := parseFaults(s)
	if err != nil {
		panic(err)
	}
	return fs
}

// FaultAll names every kind in --fault.
const FaultAll = "all"

// parseFaults reads a comma list of kinds, or "all" for every one in the
// order FaultNames gives, pause first.
func parseFaults(s string) ([]fault, error) {
	var names []string
	if strings.TrimSpace(s) == FaultAll {
		names = FaultNames()
		if i := slices.Index(names, FaultPause); i > 0 {
			names = append([]string{FaultPause}, slices.Delete(names, i, i+1)...)
		}
	} else {
		for _, n := range strings.Split(s, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	}
	var out []fault
	for _, n := range names {
		f, ok := faultKinds[n]
		if !ok {
			return nil, fmt.Errorf("%q: unknown fault (have %s, or all)", n, strings.Join(FaultNames(), ", "))
		}
		if slices.ContainsFunc(out, func(g fault) bool { return g.Name == n }) {
			return nil, fmt.Errorf("%q: listed twice", n)
		}
		out = append(out, f)
	}
	return out, nil
}

// cycleOfValidity is a grant's cycle when its holder keeps the lease for
// all of its validity: about a TTL, then a waiting worker's retry.
func cycleOfValidity(c Config, _ backends.Backend, _ float64) time.Duration {
	return c.TTL + c.RetryDelay/2
}

// quorum is a majority of n.
func quorum(n int) int { return n/2 + 1 }

// indexes is "a,b,c" of the 1-based numbers from..to.
func indexes(from, to int) string {
	var s []string
	for i := from; i <= to; i++ {
		s = append(s, fmt.Sprint(i))
	}
	return strings.Join(s, ",")
}

// specDur is d as a fault spec writes it.
func specDur(d time.Duration) string {
	if d%time.Millisecond == 0 {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%dus", d.Microseconds())
}
