package compare

import (
	"strings"
	"time"

	"github.com/lockbench/lockbench/compose/delayline"
)

// distances are the round trips a matrix runs at, each with its jitter:
// the value of --rtt 0,250us,1ms±100us (a pflag.Value).
type distances []delayline.Distance

// String is the list as --rtt takes it.
func (ds *distances) String() string {
	s := make([]string, len(*ds))
	for i, d := range *ds {
		s[i] = d.String()
	}
	return strings.Join(s, ",")
}

// Set parses a comma-separated list of RTT[±JITTER].
func (ds *distances) Set(v string) error {
	var out distances
	for _, s := range strings.Split(v, ",") {
		d, err := delayline.ParseDistance(s)
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	*ds = out
	return nil
}

// Type names the flag's value in help.
func (*distances) Type() string { return "durations" }

// RTTs are the round trips without their jitter.
func (ds distances) RTTs() []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.RTT
	}
	return out
}
