package lab

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/results/fielderr"
)

func TestDistanceName(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		rtt, jitter time.Duration
		per         []time.Duration
		want        string
	}{
		{0, 0, nil, ""},
		{ms, 0, nil, "rtt=1ms"},
		{ms, 100 * time.Microsecond, nil, "rtt=1ms±100µs"},
		{0, 0, []time.Duration{300 * time.Microsecond, ms, 2 * ms}, "rtt=300µs,1ms,2ms"},
	} {
		cfg := Config{RTT: c.rtt, RTTJitter: c.jitter, RTTPerMaster: c.per}
		if got := cfg.DistanceName(); got != c.want {
			t.Errorf("%+v: %q, want %q", c, got, c.want)
		}
	}
}

func TestDistances(t *testing.T) {
	ms := time.Millisecond
	cfg := Config{RTTJitter: ms / 10, RTTPerMaster: []time.Duration{ms, 2 * ms}}
	got := cfg.Distances(2)
	if got[0].RTT != ms || got[1].RTT != 2*ms || got[1].Jitter != ms/10 {
		t.Errorf("per master: %+v", got)
	}
	cfg = Config{RTT: ms}
	for i, d := range cfg.Distances(3) {
		if d.RTT != ms {
			t.Errorf("master %d: %+v, want every master at 1ms", i+1, d)
		}
	}
}

func TestValidateDistance(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		cfg   Config
		field string // "" when valid
	}{
		{"none", Config{}, ""},
		{"rtt", Config{RTT: ms, RTTJitter: ms / 2}, ""},
		{"per master", Config{RTTPerMaster: []time.Duration{ms, ms, ms}}, ""},
		{"per master, too few", Config{RTTPerMaster: []time.Duration{ms, ms}}, "rtt_per_master"},
		{"per master beside rtt", Config{RTT: ms, RTTPerMaster: []time.Duration{ms, ms, ms}}, "rtt_per_master"},
		{"negative per master", Config{RTTPerMaster: []time.Duration{ms, -ms, ms}}, "rtt_per_master"},
		{"jitter alone", Config{RTTJitter: ms}, "rtt_jitter"},
		{"jitter above rtt", Config{RTT: ms, RTTJitter: 2 * ms}, "rtt_jitter"},
		{"rtt at the node timeout", Config{RTT: 40 * ms, RTTJitter: 10 * ms}, "rtt"},
	} {
		c.cfg.Driver.Redlock.NodeTimeout = 50 * ms
		err := c.cfg.validateDistance(3)
		if c.name == "rtt at the node timeout" && !strings.HasSuffix(err.Error(), "(raise driver.redlock.node_timeout)") {
			t.Errorf("%s: %v, want the node timeout's field as the mend", c.name, err)
		}
		var fe *fielderr.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field):
			t.Errorf("%s: %v, want an error on %s", c.name, err, c.field)
		}
	}
}

// TestRTTFlag: the flag sets both the round trip and its jitter from one
// value and prints them back; a bad value changes nothing.
func TestRTTFlag(t *testing.T) {
	for _, c := range []struct {
		in          string
		rtt, jitter time.Duration
		err         bool
	}{
		{"1ms", time.Millisecond, 0, false},
		{"1ms±100us", time.Millisecond, 100 * time.Microsecond, false},
		{"2ms+-1ms", 2 * time.Millisecond, time.Millisecond, false},
		{"fast", time.Second, time.Second, true},
	} {
		cfg := Config{RTT: time.Second, RTTJitter: time.Second}
		f := cfg.RTTFlag()
		err := f.Set(c.in)
		if (err != nil) != c.err || cfg.RTT != c.rtt || cfg.RTTJitter != c.jitter {
			t.Errorf("Set(%q): rtt %v jitter %v err %v; want %v %v error %v", c.in, cfg.RTT, cfg.RTTJitter, err, c.rtt, c.jitter, c.err)
		}
		if want := (delayline.Distance{RTT: c.rtt, Jitter: c.jitter}).String(); f.String() != want {
			t.Errorf("String after %q: %q, want %q", c.in, f.String(), want)
		}
	}
	if f := (rttFlag{}); f.String() != "0s" || f.Type() != "duration" {
		t.Errorf("zero flag: %q %q, want 0s duration", f.String(), f.Type())
	}
}
