// Package faults parses fault specs (a cell's faults) and plays them
// against a run's masters: crashes and restarts (kill), process pauses
// (stop: SIGSTOP), and network faults through per-master toxiproxy proxies
// (latency, partition, reset).
// The scenarios come from the Redlock debate: antirez's notes on persistence
// and delayed restarts, the critique's process pauses and network delays.
package faults

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kinds of fault.
const (
	kindKill  = "kill"      // SIGKILL masters, then restart per Restart
	stop      = "stop"      // SIGSTOP masters for For, then SIGCONT
	Latency   = "latency"   // add MS (± Jitter) ms to replies on the delay line
	Partition = "partition" // blackhole the proxy: requests are dropped, nothing answers
	Reset     = "reset"     // the proxy resets every connection (TCP RST)
	// PauseClient stalls workers inside their next critical section, past
	// their lease's validity: the critique's GC pause.
	PauseClient = "pause-client"
	// ClockJump steps the wall clock of masters (run under the clockshift
	// preload library) by Jump: keys expire early (+) or late (−) there.
	ClockJump = "clock-jump"
	// ClockDrift runs the wall clock of masters (under clockshift) fast
	// (or slow) by Rate: each second of real time it gains Rate seconds,
	// played as steps of Rate × driftStep.
	ClockDrift = "clock-drift"
	// DropRelease loses the next release after At (one per fault): it is
	// never sent, and the client sees it fail as a lost reply looks. The
	// key stays held on the servers until its TTL.
	DropRelease = "drop-release"
)

// Restart policies of a killed master.
const (
	restartImmediate = "immediate" // back at once; with persistence none it is empty
	restartDelayed   = "delayed"   // back after Delay (default ttl+1s: antirez's delayed restart)
	restartNever     = "never"
)

// dur is a duration that may be relative to the lock TTL: "2s", "ttl",
// "ttl+1s", "ttl-200ms". It serialises as written.
type dur struct {
	TTL bool          // relative to the TTL
	D   time.Duration // absolute, or the offset from the TTL
}

// Resolve is the duration for a given TTL.
func (d dur) Resolve(ttl time.Duration) time.Duration {
	if d.TTL {
		return ttl + d.D
	}
	return d.D
}

func (d dur) String() string {
	switch {
	case !d.TTL:
		return d.D.String()
	case d.D == 0:
		return "ttl"
	case d.D > 0:
		return "ttl+" + d.D.String()
	}
	return "ttl-" + (-d.D).String()
}

// MarshalText writes the duration as it would be given.
func (d dur) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func parseDur(s string) (dur, error) {
	rest, ttl := strings.CutPrefix(s, "ttl")
	if !ttl {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return dur{}, fmt.Errorf("%q: want a duration such as 2s, ttl or ttl+1s", s)
		}
		return dur{D: d}, nil
	}
	if rest == "" {
		return dur{TTL: true}, nil
	}
	if rest[0] != '+' && rest[0] != '-' {
		return dur{}, fmt.Errorf("%q: want ttl+D or ttl-D", s)
	}
	d, err := time.ParseDuration(rest[1:])
	if err != nil || d < 0 {
		return dur{}, fmt.Errorf("%q: want ttl+D or ttl-D", s)
	}
	if rest[0] == '-' {
		d = -d
	}
	return dur{TTL: true, D: d}, nil
}

// Fault is one parsed --fault spec.
type Fault struct {
	Spec    string `json:"spec"` // as given
	Kind    string `json:"kind"`
	Masters []int  `json:"masters,omitempty"` // 1-based
	Workers []int  `json:"workers,omitempty"` // pause-client, 1-based
	At      dur    `json:"at"`                // from the start of the run's load (warmup included)
	For     dur    `json:"for"`               // stop/latency/partition/reset; 0: until the run ends
	Restart string `json:"restart,omitempty"`
	Delay   dur    `json:"delay"`        // restart=delayed
	MS      int    `json:"ms,omitempty"` // latency
	Jitter  int    `json:"jitter,omitempty"`
	// Jump is a clock-jump's step: +5s runs the masters' wall clock ahead.
	Jump time.Duration `json:"jump_ns,omitempty"`
	// Rate is a clock-drift's rate: 0.01 (rate=+1%) gains 10 ms a second.
	Rate float64 `json:"rate,omitempty"`
}

// Proxied reports whether the fault needs something in front of the
// masters: the delay line (latency) or a proxy (partition, reset).
func (f Fault) Proxied() bool {
	return f.Kind == Latency || f.Kind == Partition || f.Kind == Reset
}

// parse reads one spec: KIND:key=value:key=value..., for example
//
//	kill:masters=3:at=5s:restart=immediate|delayed|never[:delay=ttl+1s]
//	stop:masters=1:at=5s:for=2s
//	latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s
//	partition:masters=1,2:at=5s:for=3s
//	reset:masters=1:at=5s[:for=1s]
//	pause-client:workers=1:at=2s:for=ttl+1s
//	clock-jump:masters=2:+5s[:at=2s][:for=3s]
//	clock-drift:masters=2:rate=+1%[:at=2s][:for=3s]
//	drop-release:at=2s
//
// masters and workers are 1-based; at defaults to 0 and for to the rest of
// the run (a clock jump with for= jumps back when it ends).
func parse(spec string) (Fault, error) {
	parts := strings.Split(spec, ":")
	f := Fault{Spec: spec, Kind: parts[0]}
	switch f.Kind {
	case kindKill, stop, Latency, Partition, Reset, PauseClient, ClockJump, ClockDrift, DropRelease:
	default:
		return f, fmt.Errorf("fault %q: unknown kind %q (have %s)", spec, f.Kind, strings.Join(kinds, ", "))
	}
	seen := map[string]bool{}
	for _, kv := range parts[1:] {
		if f.Kind == ClockJump && (strings.HasPrefix(kv, "+") || strings.HasPrefix(kv, "-")) {
			kv = "by=" + kv // the positional form: clock-jump:masters=2:+5s
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("fault %q: %q: want key=value", spec, kv)
		}
		if seen[k] {
			return f, fmt.Errorf("fault %q: %s given twice", spec, k)
		}
		seen[k] = true
		var err error
		switch k {
		case "masters":
			f.Masters, err = parseIndexes("master", v)
		case "workers":
			f.Workers, err = parseIndexes("worker", v)
		case "by":
			f.Jump, err = parseJump(v)
		case "rate":
			f.Rate, err = parseRate(v)
		case "at":
			f.At, err = parseDur(v)
		case "for":
			f.For, err = parseDur(v)
		case "delay":
			f.Delay, err = parseDur(v)
		case "restart":
			f.Restart = v
			if v != restartImmediate && v != restartDelayed && v != restartNever {
				err = fmt.Errorf("%q: want immediate, delayed or never", v)
			}
		case "ms", "jitter":
			n, aerr := strconv.Atoi(v)
			if aerr != nil || n < 0 {
				err = fmt.Errorf("%q: want milliseconds ≥ 0", v)
			}
			if k == "ms" {
				f.MS = n
			} else {
				f.Jitter = n
			}
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			return f, fmt.Errorf("fault %q: %s: %v", spec, k, err)
		}
		if !f.allows(k) {
			return f, fmt.Errorf("fault %q: %s does not apply to %s", spec, k, f.Kind)
		}
	}
	switch {
	case f.Kind == PauseClient:
		if len(f.Workers) == 0 {
			return f, fmt.Errorf("fault %q: workers=N[,N...] is required", spec)
		}
	case f.Kind == DropRelease:
	case len(f.Masters) == 0:
		return f, fmt.Errorf("fault %q: masters=N[,N...] is required", spec)
	}
	switch f.Kind {
	case kindKill:
		if f.Restart == "" {
			f.Restart = restartImmediate
		}
		if f.Restart == restartDelayed && !seen["delay"] {
			f.Delay = dur{TTL: true, D: time.Second}
		}
		if seen["delay"] && f.Restart != restartDelayed {
			return f, fmt.Errorf("fault %q: delay needs restart=delayed", spec)
		}
	case stop:
		if !seen["for"] {
			return f, fmt.Errorf("fault %q: stop needs for=D (a master stopped for good is kill:restart=never)", spec)
		}
	case Latency:
		if f.MS == 0 && f.Jitter == 0 {
			return f, fmt.Errorf("fault %q: latency needs ms=N", spec)
		}
	case PauseClient:
		if !seen["for"] {
			return f, fmt.Errorf("fault %q: pause-client needs for=D (ttl+1s stalls past the lease)", spec)
		}
	case ClockJump:
		if f.Jump == 0 {
			return f, fmt.Errorf("fault %q: clock-jump needs a step such as +5s or -5s", spec)
		}
	case ClockDrift:
		if f.Rate == 0 {
			return f, fmt.Errorf("fault %q: clock-drift needs rate=R such as +1%% or -0.1%%", spec)
		}
	}
	return f, nil
}

// kinds lists every fault kind, for help and errors.
var kinds = []string{kindKill, stop, Latency, Partition, Reset, PauseClient, ClockJump, ClockDrift, DropRelease}

func (f Fault) allows(key string) bool {
	switch key {
	case "at":
		return true
	case "masters":
		return f.Kind != PauseClient && f.Kind != DropRelease
	case "workers":
		return f.Kind == PauseClient
	case "by":
		return f.Kind == ClockJump
	case "rate":
		return f.Kind == ClockDrift
	case "restart", "delay":
		return f.Kind == kindKill
	case "for":
		return f.Kind != kindKill && f.Kind != DropRelease
	case "ms", "jitter":
		return f.Kind == Latency
	}
	return false
}

// parseIndexes reads a 1-based list such as 1,2,3.
func parseIndexes(what, v string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(v, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: want 1-based %s numbers", v, what)
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("%q: %s %d listed twice", v, what, n)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseJump reads a signed, non-zero step: +5s, -500ms.
func parseJump(v string) (time.Duration, error) {
	if v[0] != '+' && v[0] != '-' {
		return 0, fmt.Errorf("%q: want a signed step such as +5s or -2s", v)
	}
	d, err := time.ParseDuration(v)
	if err != nil || d == 0 {
		return 0, fmt.Errorf("%q: want a signed step such as +5s or -2s", v)
	}
	return d, nil
}

// maxRate bounds a clock-drift's rate: a clock running at twice real
// time, or standing still.
const maxRate = 1

// parseRate reads a signed rate, a percentage or a fraction: +1%, -0.1%,
// 0.01.
func parseRate(v string) (float64, error) {
	num, pct := strings.CutSuffix(v, "%")
	r, err := strconv.ParseFloat(num, 64)
	if pct {
		r /= 100
	}
	if err != nil || r == 0 || math.IsNaN(r) || math.Abs(r) > maxRate {
		return 0, fmt.Errorf("%q: want a non-zero rate within ±100%% such as +1%%, -0.1%% or 0.01", v)
	}
	return r, nil
}

// Check verifies f against the run: masters and workers in range, local
// masters for process faults.
func (f Fault) Check(masters, workers int, local bool) error {
	for _, m := range f.Masters {
		if m > masters {
			return fmt.Errorf("fault %q: master %d: the run has %d", f.Spec, m, masters)
		}
	}
	for _, w := range f.Workers {
		if w > workers {
			return fmt.Errorf("fault %q: worker %d: the run has %d", f.Spec, w, workers)
		}
	}
	if !f.Proxied() && !f.ClientSide() && !local {
		return fmt.Errorf("fault %q: %s needs local masters, not external servers (redis_addrs, etcd_addrs, zookeeper_addrs, postgres_url)", f.Spec, f.Kind)
	}
	return nil
}

// CheckTTL refuses a ttl-relative duration of f that comes out negative
// for ttl (at=ttl-5s with a 2 s TTL), as at=-1s is refused: a time
// before the run's start, or a negative length, is not what was meant.
func (f Fault) CheckTTL(ttl time.Duration) error {
	for _, d := range []struct {
		key string
		d   dur
	}{{"at", f.At}, {"for", f.For}, {"delay", f.Delay}} {
		if d.d.TTL && d.d.Resolve(ttl) < 0 {
			return fmt.Errorf("fault %q: %s=%s is %v with the %v TTL: must not be negative", f.Spec, d.key, d.d, d.d.Resolve(ttl), ttl)
		}
	}
	return nil
}

// ClientSide: the fault is played in the client (pause-client,
// drop-release), on any backend and any servers.
func (f Fault) ClientSide() bool { return f.Kind == PauseClient || f.Kind == DropRelease }

// Has reports whether any of fs is of kind: client pauses need a stall
// hook in the workload.
func Has(fs []Fault, kind string) bool {
	return slices.ContainsFunc(fs, func(f Fault) bool { return f.Kind == kind })
}

// Clocked reports whether any of fs moves a master's wall clock (a jump
// or a drift): those masters run under clockshift.
func Clocked(fs []Fault) bool { return Has(fs, ClockJump) || Has(fs, ClockDrift) }

// clock is whether f moves a clock.
func (f Fault) clock() bool { return f.Kind == ClockJump || f.Kind == ClockDrift }

// ParseAll parses every spec and reports whether any needs proxies.
func ParseAll(specs []string) (_ []Fault, proxied bool, _ error) {
	out := make([]Fault, 0, len(specs))
	for _, s := range specs {
		f, err := parse(s)
		if err != nil {
			return nil, false, err
		}
		proxied = proxied || f.Proxied()
		out = append(out, f)
	}
	return out, proxied, nil
}
