package sweep

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// By is what a sweep steps.
type By string

const (
	// ByRate steps an open-loop rate (cycles/s) with the workers fixed;
	// latency counts from the intended start, so queueing shows.
	ByRate By = "rate"
	// ByWorkers steps the workers of a closed loop.
	ByWorkers By = "workers"
)

// Load is the load a step was measured at: its rate or its workers.
func (b By) Load(st schema.SweepStep) float64 {
	if b == ByWorkers {
		return float64(st.Workers)
	}
	return st.Rate
}

// Defaults of the zero Config.
const (
	defaultOp           = "cycle"
	defaultSLO          = 2 * time.Millisecond
	defaultStartRate    = 200 // cycles/s
	defaultStartWorkers = 1
	defaultFactor       = 1.5
	defaultMaxSteps     = 20
	defaultRefine       = 2
	defaultRepeat       = 3
	defaultRounds       = 3
	defaultHostProbe    = 2 * time.Second
	// DefaultMaxErrorRate: one timeout in 10⁵ cycles on a noisy host
	// should not end a sweep, a failing backend must.
	defaultMaxErrorRate = 0.001
)

// maxCount bounds each count a sweep is given (steps, bisection steps,
// repeats, interval rounds): each is a measurement of its own, and a
// hundred of one kind is already hours at the default step length.
const maxCount = 100

// NoRefine (Refine) skips the bisection; NoErrors (MaxErrorRate) lets a
// good step have no error at all. Zero means the default for both.
const (
	NoRefine = -1
	noErrors = -1
)

// NoInterval (IntervalRounds) measures no knee interval, NoHostProbe
// (HostProbe) probes no host noise; zero means the default for both.
const (
	NoInterval  = -1
	NoHostProbe = -1
)

// maxHostProbe bounds HostProbe: a probe longer than a minute says
// nothing more of the host than one of a few seconds.
const maxHostProbe = time.Minute

// Config is a capacity sweep. It is written into the summary (the JSON
// keys are lockbench/v1's). The zero value is the defaults: Base zero is
// DefaultConfig's cell, every other zero field its Default constant.
type Config struct {
	// Base is the cell every step measures, with its rate (ByRate) or
	// workers (ByWorkers) replaced by the step's load.
	Base lab.Config `json:"base"`
	// Muxes are the strategies swept on the same servers, one after the
	// other (nil: Base's).
	Muxes []string `json:"muxes" flag:"muxes" help:"strategies to sweep, comma-separated (default: --mux)"`
	By    By       `json:"by" flag:"by" help:"what to step: rate (open loop, --workers fixed) | workers (closed loop)"`
	// Op is the op whose p99 is held to SLO: one of Ops.
	Op  string        `json:"op" flag:"op" help:"op whose p99 is held to --slo: acquire|acquire_total|release|cycle"`
	SLO time.Duration `json:"slo" flag:"slo" help:"p99 latency objective of --op"`
	// Start is the first step's load: cycles/s or workers.
	Start float64 `json:"start" flag:"start" help:"first step: cycles/s (--by rate) or workers (--by workers)"`
	// Factor multiplies the load at each step (more than 1).
	Factor float64 `json:"factor" flag:"factor" help:"each step multiplies the load by this"`
	// MaxSteps bounds the steps per strategy before the bisection.
	MaxSteps int `json:"max_steps" flag:"max-steps" help:"most steps per strategy before bisecting"`
	// Refine is the bisection steps between the last good and the first
	// bad load (NoRefine: none).
	Refine int `json:"refine" flag:"refine" help:"bisection steps between the last good and first bad step"`
	// Repeat is how many measurements decide a step that failed once,
	// the step below it and every bisection step: the step's verdict is
	// that of their medians (p99, cycles/s), so one noisy measurement
	// neither ends the climb nor sets the knee.
	Repeat int `json:"repeat" flag:"repeat" help:"measurements that decide a failing step, the step below it and each bisection step (judged on their medians)"`
	// MaxErrorRate is the share of attempts (errors and timeouts, failed
	// releases) a good step may have (NoErrors: none).
	MaxErrorRate float64 `json:"max_error_rate" flag:"max-error-rate" help:"share of attempts that may fail (errors, timeouts, failed releases) in a good step; 0: none"`
	// IntervalRounds is the interleaved rounds that measure the probes
	// around the knee (the step below it, the knee, the first bad step)
	// once each, for the knee's interval (NoInterval: none).
	IntervalRounds int `json:"interval_rounds" flag:"interval-rounds" help:"rounds measuring the step below the knee, the knee and the first bad step once each, interleaved, for the knee interval; 0: no interval"`
	// TargetRate is a rate (cycles/s) to plan for from the knee's measured
	// cost per cycle: generator cores, cores per master, workers (0: no
	// plan).
	TargetRate float64 `json:"target_rate,omitempty" flag:"target-rate" help:"cycles/s to plan for from the measured cost per cycle: generator cores, cores per master, workers; 0: no plan"`
	// HostProbe is how long the host's own noise is probed, the servers
	// idle, before each strategy's first step and after its last: two
	// probes that disagree say the host changed under the sweep
	// (NoHostProbe: none).
	HostProbe time.Duration `json:"host_probe" flag:"host-probe" help:"how long to probe the host's own noise (late wake-ups, servers idle) before and after each strategy, to tell a host that changed under the sweep; 0: no probe"`
}

// DefaultConfig is the zero Config with its defaults filled in: Redlock
// over go-redis fan-out on 5 local masters (lab.DefaultConfig), steps of
// 3 s after a 1 s warmup, stepped by rate from 200 cycles/s.
func DefaultConfig() Config { return Config{}.withDefaults() }

// defaultBase is the cell of a zero Config: the lab's, with steps long
// enough for a p99 and a warmup that fills the pools.
func defaultBase() lab.Config {
	c := lab.DefaultConfig()
	c.Workload.Duration, c.Workload.Warmup = 3*time.Second, time.Second
	return c
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Base.Driver.Backend == "" && c.Base.Workload.Workload == "" {
		c.Base = defaultBase()
	}
	if len(c.Muxes) == 0 {
		c.Muxes = []string{c.Base.Driver.Mux}
	}
	if c.By == "" {
		c.By = ByRate
	}
	if c.Op == "" {
		c.Op = defaultOp
	}
	if c.SLO == 0 {
		c.SLO = defaultSLO
	}
	if c.Start == 0 {
		c.Start = defaultStartRate
		if c.By == ByWorkers {
			c.Start = defaultStartWorkers
		}
	}
	if c.Factor == 0 {
		c.Factor = defaultFactor
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = defaultMaxSteps
	}
	if c.Refine == 0 {
		c.Refine = defaultRefine
	}
	if c.MaxErrorRate == 0 {
		c.MaxErrorRate = defaultMaxErrorRate
	}
	if c.Repeat == 0 {
		c.Repeat = defaultRepeat
	}
	if c.IntervalRounds == 0 {
		c.IntervalRounds = defaultRounds
	}
	if c.HostProbe == 0 {
		c.HostProbe = defaultHostProbe
	}
	return c
}

// hostProbe is how long the host is probed, none for NoHostProbe.
func (c Config) hostProbe() time.Duration { return max(c.HostProbe, 0) }

// rounds is the knee interval's rounds, none for NoInterval.
func (c Config) rounds() int { return max(c.IntervalRounds, 0) }

// refine is the bisection steps, none for NoRefine.
func (c Config) refine() int { return max(c.Refine, 0) }

// repeat is the measurements that decide a step, at least 1.
func (c Config) repeat() int { return max(c.Repeat, 1) }

// maxErrorRate is the share of failed attempts a good step may have.
func (c Config) maxErrorRate() float64 { return math.Max(c.MaxErrorRate, 0) }

// Ops are the ops every workload records, so every step measures them.
// extend is not among them: no workload extends its leases, and a p99 of
// no samples (0) would pass any SLO and make every step a knee.
func Ops() []string { return []string{"acquire", "acquire_total", "release", "cycle"} }

// Literal is c read as a command line gives it, every field set: a zero
// means zero, not the default. A zero SLO, Start, Factor, MaxSteps or
// Repeat and a negative Refine, MaxErrorRate or IntervalRounds are refused (a
// *fielderr.Error), a zero Refine is NoRefine, a zero MaxErrorRate
// NoErrors, a zero IntervalRounds NoInterval and a zero HostProbe
// NoHostProbe; the result is
// validated (Validate) and is what Run takes.
func (c Config) Literal() (Config, error) {
	switch {
	case c.SLO == 0:
		return c, fielderr.Invalid("slo", c.SLO, "must be positive")
	case c.Start == 0:
		return c, fielderr.Invalid("start", c.Start, "must be positive")
	case c.Factor == 0:
		return c, fielderr.Invalid("factor", c.Factor, "must be more than 1")
	case c.MaxSteps == 0:
		return c, fielderr.Invalid("max_steps", c.MaxSteps, "must be at least 1")
	case c.Repeat == 0:
		return c, fielderr.Invalid("repeat", c.Repeat, "must be at least 1")
	case c.Refine < 0:
		return c, fielderr.Invalid("refine", c.Refine, "must not be negative")
	case c.MaxErrorRate < 0:
		return c, fielderr.Invalid("max_error_rate", c.MaxErrorRate, "want a share in [0, 1)")
	case c.IntervalRounds < 0:
		return c, fielderr.Invalid("interval_rounds", c.IntervalRounds, "must not be negative")
	case c.HostProbe < 0:
		return c, fielderr.Invalid("host_probe", c.HostProbe, "must not be negative")
	}
	if c.HostProbe == 0 {
		c.HostProbe = NoHostProbe
	}
	if c.Refine == 0 {
		c.Refine = NoRefine
	}
	if c.IntervalRounds == 0 {
		c.IntervalRounds = NoInterval
	}
	if c.MaxErrorRate == 0 {
		c.MaxErrorRate = noErrors
	}
	return c, c.Validate()
}

// Validate reports the first field a sweep cannot run with, as a
// *fielderr.Error naming the field's JSON path ("max_steps",
// "base.workload.rate", "base.driver.mux").
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.By != ByRate && c.By != ByWorkers:
		return fielderr.Invalid("by", string(c.By), "want %s or %s", ByRate, ByWorkers)
	case c.SLO < 0:
		return fielderr.Invalid("slo", c.SLO, "must be positive")
	case !(c.Factor > 1) || math.IsInf(c.Factor, 0):
		return fielderr.Invalid("factor", c.Factor, "must be more than 1")
	case c.MaxSteps < 1 || c.MaxSteps > maxCount:
		return fielderr.Invalid("max_steps", c.MaxSteps, "must be 1 to %d", maxCount)
	case c.Repeat < 1 || c.Repeat > maxCount:
		return fielderr.Invalid("repeat", c.Repeat, "must be 1 to %d", maxCount)
	case c.Refine > maxCount:
		return fielderr.Invalid("refine", c.Refine, "must be at most %d", maxCount)
	case c.IntervalRounds > maxCount:
		return fielderr.Invalid("interval_rounds", c.IntervalRounds, "must be at most %d", maxCount)
	case math.IsNaN(c.MaxErrorRate) || c.MaxErrorRate >= 1:
		return fielderr.Invalid("max_error_rate", c.MaxErrorRate, "want a share in [0, 1)")
	case c.By == ByWorkers && c.Start < 1:
		return fielderr.Invalid("start", c.Start, "stepping workers starts at 1 worker or more")
	case !(c.Start > 0) || math.IsInf(c.Start, 0):
		return fielderr.Invalid("start", c.Start, "must be positive")
	case c.IntervalRounds < NoInterval:
		return fielderr.Invalid("interval_rounds", c.IntervalRounds, "must not be negative")
	case c.HostProbe > maxHostProbe || (c.HostProbe < 0 && c.HostProbe != NoHostProbe):
		return fielderr.Invalid("host_probe", c.HostProbe, "must be 0 to %v", maxHostProbe)
	case c.TargetRate < 0 || math.IsNaN(c.TargetRate) || math.IsInf(c.TargetRate, 0):
		return fielderr.Invalid("target_rate", c.TargetRate, "want cycles/s, positive (0: no plan)")
	case c.By == ByRate && c.Base.Workload.Rate != 0:
		return fielderr.Invalid("base.workload.rate", c.Base.Workload.Rate, "a sweep by rate steps the rate itself, from its start")
	}
	if err := checkOp(c.Op); err != nil {
		return err
	}
	for _, mux := range c.Muxes {
		s := c.Base
		s.Driver.Mux = mux
		if c.By == ByWorkers {
			s.Workload.Workers = int(c.Start)
		}
		if err := s.Validate(); err != nil { // the first step of each mux: as a cell, with the cell's checks
			return fielderr.Within("base", err)
		}
	}
	return nil
}

// checkOp refuses an op the steps would not measure.
func checkOp(op string) error {
	for _, o := range Ops() {
		if o == op {
			return nil
		}
	}
	want := strings.Join(Ops(), ", ")
	if schema.KnownOp(op) {
		return &fielderr.Error{Field: "op", Value: op, Err: fmt.Errorf("no workload measures %s latency; want one of %s", op, want)}
	}
	return fielderr.Invalid("op", op, "want one of %s", want)
}
