package delayline

import (
	"strings"
	"testing"
	"time"
)

func TestParseDistance(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Distance
		err  string
	}{
		{"1ms", Distance{RTT: time.Millisecond}, ""},
		{"1ms±100us", Distance{RTT: time.Millisecond, Jitter: 100 * time.Microsecond}, ""},
		{"250us+-50us", Distance{RTT: 250 * time.Microsecond, Jitter: 50 * time.Microsecond}, ""},
		{"0", Distance{}, ""},
		{"1 ms", Distance{}, "want a duration"},
		{"-1ms", Distance{}, "negative"},
		{"1ms±2ms", Distance{}, "above the round trip"},
		{"1ms±x", Distance{}, "jitter"},
	} {
		got, err := ParseDistance(c.in)
		if err == nil {
			err = got.Check()
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, _ := ParseDistance(got.String()); back != got {
			t.Errorf("%q: String %q reads back as %+v", c.in, got.String(), back)
		}
	}
}

func TestParsePair(t *testing.T) {
	def := Distance{RTT: time.Millisecond}
	for _, c := range []struct {
		in   string
		want Pair
		err  string
	}{
		{"127.0.0.1:0=127.0.0.1:6379", Pair{"127.0.0.1:0", "127.0.0.1:6379", def}, ""},
		{"127.0.0.1:0=127.0.0.1:6379@2ms±1ms", Pair{"127.0.0.1:0", "127.0.0.1:6379", Distance{2 * time.Millisecond, time.Millisecond}}, ""},
		{"127.0.0.1:6379", Pair{}, "want LISTEN=TARGET"},
		{"=127.0.0.1:6379", Pair{}, "want LISTEN=TARGET"},
		{"a=b@soon", Pair{}, "want a duration"},
	} {
		got, err := ParsePair(c.in, def)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, _ := ParsePair(got.String(), Distance{}); back != got {
			t.Errorf("%q: String %q reads back as %+v", c.in, got.String(), back)
		}
	}
}

// TestDrawJitter: every draw stays within base ± jitter and never below 0.
func TestDrawJitter(t *testing.T) {
	var d delay
	d.set(Leg{100 * time.Microsecond, 40 * time.Microsecond})
	lo, hi := time.Hour, time.Duration(0)
	for range 10000 {
		v := d.draw()
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo < 60*time.Microsecond || hi > 140*time.Microsecond || hi-lo < 60*time.Microsecond {
		t.Errorf("draws in [%v, %v], want a spread within [60µs, 140µs]", lo, hi)
	}
	d.set(Leg{10 * time.Microsecond, 40 * time.Microsecond})
	for range 1000 {
		if v := d.draw(); v < 0 {
			t.Fatalf("draw %v below zero", v)
		}
	}
}
