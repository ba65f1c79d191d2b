package lab

import (
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/results/fielderr"
)

// HasDistance reports whether c adds a round trip to any master.
func (c Config) HasDistance() bool {
	return c.RTT > 0 || len(c.RTTPerMaster) > 0
}

// Distances are each of n masters' added round trips: RTTPerMaster, or
// RTT ± RTTJitter for every master.
func (c Config) Distances(n int) []delayline.Distance {
	out := make([]delayline.Distance, n)
	for i := range out {
		out[i] = delayline.Distance{RTT: c.RTT, Jitter: c.RTTJitter}
		if i < len(c.RTTPerMaster) {
			out[i].RTT = c.RTTPerMaster[i]
		}
	}
	return out
}

// DistanceName is how a row name shows the distance: "rtt=1ms",
// "rtt=1ms±100us", "rtt=300µs,1ms,2ms"; "" when there is none.
func (c Config) DistanceName() string {
	if !c.HasDistance() {
		return ""
	}
	rtt := c.RTT.String()
	if len(c.RTTPerMaster) > 0 {
		s := make([]string, len(c.RTTPerMaster))
		for i, d := range c.RTTPerMaster {
			s[i] = d.String()
		}
		rtt = strings.Join(s, ",")
	}
	if c.RTTJitter > 0 {
		rtt += "±" + c.RTTJitter.String()
	}
	return "rtt=" + rtt
}

// validateDistance checks the round trips against the masters they are
// put in front of (masters of them) and the per-master budget: a round
// trip at or above the node timeout would make every command time out.
func (c *Config) validateDistance(masters int) error {
	if c.RTTJitter > 0 && !c.HasDistance() {
		return fielderr.Invalid("rtt_jitter", c.RTTJitter, "without a round trip to vary")
	}
	if len(c.RTTPerMaster) > 0 {
		if c.RTT > 0 {
			return fielderr.Invalid("rtt_per_master", durations(c.RTTPerMaster), "not with an RTT for every master (%v)", c.RTT)
		}
		if len(c.RTTPerMaster) != masters {
			return fielderr.Invalid("rtt_per_master", durations(c.RTTPerMaster), "%d round trips for %d masters", len(c.RTTPerMaster), masters)
		}
	}
	for i, d := range c.Distances(masters) {
		field := "rtt"
		if len(c.RTTPerMaster) > 0 {
			field = "rtt_per_master"
		}
		if err := d.Check(); err != nil {
			if d.RTT >= 0 && d.Jitter > d.RTT {
				field = "rtt_jitter"
			}
			return fielderr.Invalid(field, d, "master %d: %v", i+1, err)
		}
		if nt := c.Driver.Redlock.NodeTimeout; nt > 0 && d.RTT+d.Jitter >= nt {
			fe := fielderr.Invalid(field, d, "master %d: the round trip reaches the node timeout %v: every command would time out", i+1, nt)
			fe.Hint, fe.HintField = "raise %s", "driver.redlock.node_timeout"
			return fe
		}
	}
	return nil
}

type durations []time.Duration

func (ds durations) String() string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ",")
}

// RTTFlag is c's RTT and RTTJitter as one flag value, "1ms" or
// "1ms±100us", as compare's --rtt takes each of its values: a CLI binds it
// by hand, the flag of both fields.
func (c *Config) RTTFlag() pflag.Value { return rttFlag{c} }

// rttFlag is Config.RTTFlag.
type rttFlag struct{ c *Config }

func (f rttFlag) String() string {
	if f.c == nil {
		return "0s"
	}
	return delayline.Distance{RTT: f.c.RTT, Jitter: f.c.RTTJitter}.String()
}

func (f rttFlag) Set(s string) error {
	d, err := delayline.ParseDistance(s)
	if err != nil {
		return err
	}
	f.c.RTT, f.c.RTTJitter = d.RTT, d.Jitter
	return nil
}

func (rttFlag) Type() string { return "duration" }
