package slow

import (
	"testing"
	"time"
)

func TestFromLoad(t *testing.T) {
	for _, tc := range []struct {
		loadavg string
		cpus    int
		want    float64
	}{
		{"0.50 0.40 0.30 1/200 123", 2, 1},
		{"2.00 1.00 1.00 1/200 123", 2, 1},
		{"7.00 5.00 3.00 4/300 999", 2, 3.5},
		{"40.0 20.0 10.0 4/300 999", 2, maxFactor},
		{"", 2, 1},
		{"garbage", 2, 1},
		{"3.0", 0, 1},
	} {
		if got := fromLoad(tc.loadavg, tc.cpus); got != tc.want {
			t.Errorf("fromLoad(%q, %d) = %g, want %g", tc.loadavg, tc.cpus, got, tc.want)
		}
	}
}

func TestEnvOverrides(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want time.Duration // D(100ms); 0: the load decides
	}{
		{"3", 300 * time.Millisecond},
		{"1", 100 * time.Millisecond},
		{"0.5", 0}, // below 1: ignored
		{"x", 0},
	} {
		t.Setenv(EnvVar, tc.env)
		got := D(100 * time.Millisecond)
		if tc.want != 0 && got != tc.want {
			t.Errorf("%s=%s: D(100ms) = %v, want %v", EnvVar, tc.env, got, tc.want)
		}
		if got < 100*time.Millisecond {
			t.Errorf("%s=%s: D(100ms) = %v, below the idle limit", EnvVar, tc.env, got)
		}
	}
}
