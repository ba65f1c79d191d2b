package compare

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/schema"
)

// TestParseRate: the rate is read from redis-benchmark -q's final line,
// never from its progress lines; output without one is an error naming it.
func TestParseRate(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      float64 // 0: an error
	}{
		{"final line", "SET: 181818.19 requests per second, p50=0.215 msec\n", 181818.19},
		{"after progress", "SET: rps=120000.0 (overall: 119000.0) avg_msec=0.3 (overall: 0.3)\rSET: 166666.67 requests per second, p50=0.2 msec\n", 166666.67},
		{"evalsha", "EVALSHA 9b3f 1 lockbench:ceiling:__rand_int__ tok: 99502.48 requests per second, p50=0.479 msec\n", 99502.48},
		{"integer", "SET: 200000 requests per second\n", 200000},
		{"nothing", "", 0},
		{"only progress", "SET: rps=120000.0 (overall: 119000.0)\r", 0},
		{"zero", "SET: 0.00 requests per second\n", 0},
		{"garbage number", "SET: 1.2.3 requests per second\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRate([]byte(tc.out))
			if tc.want == 0 {
				if err == nil {
					t.Fatalf("rate %v from %q: want an error", got, tc.out)
				}
				return
			}
			if err != nil || math.Abs(got-tc.want) > 1e-6 {
				t.Fatalf("rate %v, err %v: want %v", got, err, tc.want)
			}
		})
	}
}

// TestCeilingCycles: a cycle costs N SETs and N releases of the aggregate
// capacity.
func TestCeilingCycles(t *testing.T) {
	for _, tc := range []struct {
		n            int
		set, release float64
		want         float64
	}{
		{1, 100, 100, 50},
		{5, 1e6, 1e6, 1e5},
		{3, 300, 600, 200.0 / 3},
		{0, 100, 100, 0},
		{2, 0, 100, 0},
	} {
		if got := ceilingCycles(tc.n, tc.set, tc.release); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("ceilingCycles(%d, %v, %v) = %v, want %v", tc.n, tc.set, tc.release, got, tc.want)
		}
	}
}

// TestStderrTail: the reason redis-benchmark gave, without its -a warning.
func TestStderrTail(t *testing.T) {
	for _, tc := range []struct{ stderr, want string }{
		{"", ""},
		{"Warning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\n", ""},
		{"Warning: Using a password ...\nAUTH failed: WRONGPASS invalid username-password pair\n\n", ": AUTH failed: WRONGPASS invalid username-password pair"},
		{"Could not connect to Redis at h:1: Connection refused\n", ": Could not connect to Redis at h:1: Connection refused"},
	} {
		if got := stderrTail([]byte(tc.stderr)); got != tc.want {
			t.Errorf("stderrTail(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

// TestCostText: the ceiling's cost per cycle in one line; no server figure
// without a source.
func TestCostText(t *testing.T) {
	for _, tc := range []struct {
		c    *schema.Cost
		want string
	}{
		{nil, ""},
		{&schema.Cost{ClientCPUUSPerCycle: 14.04}, "µs/cycle: client 14.0, server -"},
		{&schema.Cost{ClientCPUUSPerCycle: 14, ServerCPUUSPerCycle: 35.26, ServerCPUSource: "proc"}, "µs/cycle: client 14.0, server 35.3"},
	} {
		if got := costText(tc.c); got != tc.want {
			t.Errorf("CostText(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestBenchConnArgs: redis-benchmark reaches each master the way the
// clients do: user, password, database and TLS files.
func TestBenchConnArgs(t *testing.T) {
	files := redisconn.TLSFiles{CACert: "ca.pem", Cert: "c.pem", Key: "k.pem", InsecureSkipVerify: true}
	ms, err := redisconn.Parse([]string{"h:1", "redis://:pw@h:2/3", "rediss://u:pw@h:4"}, redisconn.Auth{})
	if err != nil {
		t.Fatal(err)
	}
	ms[2].TLS.InsecureSkipVerify = true
	cases := []struct {
		want, not []string
	}{
		{want: []string{"-h h", "-p 1"}, not: []string{"-a", "--tls", "--user", "--dbnum"}},
		{want: []string{"-p 2", "-a pw", "--dbnum 3"}, not: []string{"--tls", "--user"}},
		{want: []string{"-p 4", "-a pw", "--user u", "--tls", "--sni h", "--cacert ca.pem", "--cert c.pem", "--key k.pem", "--insecure"}, not: []string{"--dbnum"}},
	}
	for i, c := range cases {
		args := benchConnArgs(ms[i], files)
		line := " " + strings.Join(args, " ") + " "
		for _, w := range c.want {
			if !strings.Contains(line, " "+w+" ") {
				t.Errorf("%s: args %q lack %q", ms[i], args, w)
			}
		}
		for _, n := range c.not {
			if slices.Contains(args, n) {
				t.Errorf("%s: args %q have %q", ms[i], args, n)
			}
		}
	}
}

// TestBenchAllAggregate: concurrent redis-benchmark runs that finish apart
// count as every request over the slowest run's time, not as the sum of
// their own rates (which counted the cores a finished run left to the
// others twice). A fake redis-benchmark reports 10 M requests/s for one
// master and 500 k/s for the other two: together they did 3 × 200000
// requests in the slow runs' 0.4 s, 1.5 M/s, where the rates sum to 11 M/s.
func TestBenchAllAggregate(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "redis-benchmark")
	script := `#!/bin/sh
case " $* " in *" -p 1 "*) echo "SET: 10000000.00 requests per second, p50=0.1 msec" ;;
*) echo "SET: 500000.00 requests per second, p50=0.1 msec" ;; esac
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := benchAll(context.Background(), bin, redisconn.Plain("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"), redisconn.TLSFiles{}, "SET", "k", "v")
	if err != nil {
		t.Fatal(err)
	}
	if want := 1.5e6; got != want {
		t.Errorf("aggregate %.0f requests/s, want %.0f: every request over the slowest run's time", got, want)
	}
}

// TestAggregateRate: runs of equal requests at rates did them all in the
// slowest one's time.
func TestAggregateRate(t *testing.T) {
	for _, tc := range []struct {
		rates []float64
		want  float64
	}{
		{[]float64{100, 100}, 200},
		{[]float64{1e7, 5e5, 5e5}, 1.5e6},
		{[]float64{300}, 300},
		{nil, 0},
		{[]float64{100, 0}, 0},
	} {
		if got := aggregateRate(tc.rates); got != tc.want {
			t.Errorf("aggregateRate(%v) = %v, want %v", tc.rates, got, tc.want)
		}
	}
}
