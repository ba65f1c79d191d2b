package compare

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// The ceiling is what the masters themselves can do with the same command
// mix, no lock logic in the way: redis-benchmark on every master at once,
// pipelined 16 deep, first the acquire SET, then the release EVALSHA. A lock
// cycle costs N SETs and N releases of that aggregate capacity, so
//
//	ceiling cycles/s = 1 / (N × (1/agg_set + 1/agg_release))
//
// scripts/ceiling.sh does the same from a shell.
const (
	ceilingRequests = 200000 // per master per command
	ceilingClients  = 50
	ceilingPipeline = 16
)

// Ceiling is the redis-benchmark ceiling of one masters count.
type Ceiling struct {
	Masters int
	// CyclesPerS is the lock cycles/s the masters' aggregate SET and
	// release rates allow.
	CyclesPerS, SetPerS, ReleasePerS float64
	// Cost is what a cycle cost there: redis-benchmark's CPU and the
	// masters'.
	Cost *schema.Cost
	// Rounds are the cycles/s of each round's ceiling, in the order
	// measured, when it was measured in several (compare's Repeat); the
	// rest is then the median round's, with the median of Rounds as
	// CyclesPerS.
	Rounds []float64
}

// medianCeiling is one ceiling for a masters count measured in rounds.
func medianCeiling(rounds []Ceiling) Ceiling {
	if len(rounds) == 1 {
		return rounds[0]
	}
	rates := make([]float64, len(rounds))
	for i, c := range rounds {
		rates[i] = c.CyclesPerS
	}
	sorted := slices.Clone(rounds)
	slices.SortStableFunc(sorted, func(a, b Ceiling) int { return cmp.Compare(a.CyclesPerS, b.CyclesPerS) })
	c := sorted[(len(sorted)-1)/2]
	c.CyclesPerS, c.Rounds = stats.Median(rates), rates
	return c
}

// ceilingCycles is the lock cycles/s n masters allow at aggregate rates
// set and release (requests/s).
func ceilingCycles(n int, set, release float64) float64 {
	if n < 1 || set <= 0 || release <= 0 {
		return 0
	}
	return 1 / (float64(n) * (1/set + 1/release))
}

// measureCeiling runs redis-benchmark against the masters and returns the
// ceiling with what a cycle cost there: redis-benchmark's CPU (the
// children's rusage) and the masters' (server), over the R SETs and R
// releases each master ran, R cycles' worth. tlsFiles are the TLS files,
// which redis-benchmark takes as files. With log non-nil it tells the
// result in one line.
func measureCeiling(ctx context.Context, addrs []redisconn.Endpoint, tlsFiles redisconn.TLSFiles, ttl time.Duration, server procstat.ServerCPU, log io.Writer) (Ceiling, error) {
	bin, err := exec.LookPath("redis-benchmark")
	if err != nil {
		return Ceiling{}, fmt.Errorf("redis-benchmark not found in PATH (apt-get install redis-tools, or make deps): %w", err)
	}
	sha, err := loadReleaseScript(ctx, addrs)
	if err != nil {
		return Ceiling{}, err
	}
	masters := addrs
	addrs, drop, err := benchUsers(ctx, addrs)
	if err != nil {
		return Ceiling{}, err
	}
	defer drop()
	// The SETs leave ~ceilingRequests keys a master, expiring over the
	// TTL: left there, their expiry would burn the masters' CPU under the
	// measurements that follow (measured: the next floor or cell at half speed).
	defer dropCeilingKeys(context.WithoutCancel(ctx), masters)
	children0, s0 := procstat.ChildrenCPU(), procstat.SampleCost(server)
	set, err := benchAll(ctx, bin, addrs, tlsFiles, "SET", "lockbench:ceiling:__rand_int__", "tok", "NX", "PX", strconv.FormatInt(ttl.Milliseconds(), 10))
	if err != nil {
		return Ceiling{}, err
	}
	rel, err := benchAll(ctx, bin, addrs, tlsFiles, "EVALSHA", sha, "1", "lockbench:ceiling:__rand_int__", "tok")
	if err != nil {
		return Ceiling{}, err
	}
	children1, s1 := procstat.ChildrenCPU(), procstat.SampleCost(server)
	// Only the CPU figures: lockbench's own counters moved with other work.
	full := procstat.CostBetween(s0, s1, ceilingRequests, server)
	c := Ceiling{Masters: len(addrs), CyclesPerS: ceilingCycles(len(addrs), set, rel), SetPerS: set, ReleasePerS: rel,
		Cost: &schema.Cost{ClientCPUUSPerCycle: float64(children1-children0) / 1e3 / ceilingRequests,
			ServerCPUUSPerCycle: full.ServerCPUUSPerCycle, ServerCPUSource: full.ServerCPUSource}}
	if log != nil {
		fmt.Fprintf(log, "ceiling: %d masters, aggregate SET NX %.0f/s, release EVALSHA %.0f/s → %.0f cycles/s; %s\n",
			c.Masters, set, rel, c.CyclesPerS, costText(c.Cost))
	}
	return c, nil
}

// adminClient is a plain client of master m for the ceiling's own
// commands (no CLIENT SETINFO on connect).
func adminClient(m redisconn.Endpoint) *redis.Client {
	o := m.GoRedis()
	o.DisableIdentity = true
	return redis.NewClient(o)
}

// ceilingKeys matches the keys the ceiling's SETs make.
const ceilingKeys = "lockbench:ceiling:*"

// dropCeilingKeys deletes the ceiling's keys on every master at once
// (SCAN and UNLINK in batches), within a minute.
func dropCeilingKeys(ctx context.Context, masters []redisconn.Endpoint) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for _, m := range masters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := adminClient(m)
			defer c.Close()
			iter := c.Scan(ctx, 0, ceilingKeys, 10000).Iterator()
			batch := make([]string, 0, 10000)
			for iter.Next(ctx) {
				if batch = append(batch, iter.Val()); len(batch) == cap(batch) {
					_ = c.Unlink(ctx, batch...).Err()
					batch = batch[:0]
				}
			}
			if len(batch) > 0 {
				_ = c.Unlink(ctx, batch...).Err()
			}
		}()
	}
	wg.Wait()
}

// costText is a ceiling's cost per cycle, for one-line summaries.
func costText(c *schema.Cost) string {
	if c == nil {
		return ""
	}
	server := "-"
	if c.ServerCPUSource != "" {
		server = fmt.Sprintf("%.1f", c.ServerCPUUSPerCycle)
	}
	return fmt.Sprintf("µs/cycle: client %.1f, server %s", c.ClientCPUUSPerCycle, server)
}

// loadReleaseScript puts the release script into every master's cache.
func loadReleaseScript(ctx context.Context, addrs []redisconn.Endpoint) (string, error) {
	var sha string
	for _, a := range addrs {
		c := adminClient(a)
		s, err := c.ScriptLoad(ctx, redlock.ReleaseScript).Result()
		_ = c.Close()
		if err != nil {
			return "", fmt.Errorf("script load on %s: %w", a, err)
		}
		sha = s
	}
	return sha, nil
}

var rpsLine = regexp.MustCompile(`([0-9.]+) requests per second`)

// parseRate is the requests/s of the test redis-benchmark -q ran: its
// final line ("SET: 181818.19 requests per second, p50=…"); the progress
// lines before it ("SET: rps=…") carry no such phrase.
func parseRate(out []byte) (float64, error) {
	m := rpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no rate in %q", out)
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("rate %q in %q: not a positive number", m[1], out)
	}
	return v, nil
}

// benchAll runs one redis-benchmark per master at once and returns their
// aggregate rate: every request over the time the slowest run took
// (aggregateRate). The sum of their own rates would not do: the runs
// finish up to 2× apart on a shared machine, and the last ones run alone
// on the cores the first ones left, so the sum counted that CPU twice
// (measured on 5 local masters: 1.04× on a quiet machine, the runs ending
// within 6 % of each other; 1.1–1.7× while other work shared the cores).
func benchAll(ctx context.Context, bin string, addrs []redisconn.Endpoint, tlsFiles redisconn.TLSFiles, cmd ...string) (float64, error) {
	rates := make([]float64, len(addrs))
	errs := make([]error, len(addrs))
	var wg sync.WaitGroup
	for i, a := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append(append(benchConnArgs(a, tlsFiles), "-n", strconv.Itoa(ceilingRequests),
				"-c", strconv.Itoa(ceilingClients), "-P", strconv.Itoa(ceilingPipeline), "-r", "100000000", "-q"), cmd...)
			out, err := exec.CommandContext(ctx, bin, args...).Output()
			if err != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					errs[i] = fmt.Errorf("redis-benchmark %s: %w%s", a, err, stderrTail(ee.Stderr))
				} else {
					errs[i] = fmt.Errorf("redis-benchmark %s: %w", a, err)
				}
				return
			}
			if rates[i], err = parseRate(out); err != nil {
				errs[i] = fmt.Errorf("redis-benchmark %s: %w", a, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return aggregateRate(rates), nil
}

// aggregateRate is what concurrent runs of the same number of requests did
// together at rates (each run's own requests/s): all their requests over
// the longest run's time, which is the slowest rate times the runs. Timing
// the span from outside instead would count the processes' start-up and
// connections too (2–3 % of a 1.5 s run).
func aggregateRate(rates []float64) float64 {
	if len(rates) == 0 || slices.Min(rates) <= 0 {
		return 0
	}
	return float64(len(rates)) * slices.Min(rates)
}

// benchConnArgs are redis-benchmark's flags to reach and authenticate to a
// master. redis-benchmark reads the password only from -a (no environment
// variable), so it is on its command line for the run's duration: e must
// be a throwaway user's (benchUsers), never the master's own.
func benchConnArgs(e redisconn.Endpoint, f redisconn.TLSFiles) []string {
	args := []string{"-h", e.Host(), "-p", e.Port()}
	if e.Password != "" {
		args = append(args, "-a", e.Password)
		if e.Username != "" {
			args = append(args, "--user", e.Username)
		}
	}
	if e.DB != 0 {
		args = append(args, "--dbnum", strconv.Itoa(e.DB))
	}
	if e.TLS != nil {
		args = append(args, "--tls")
		if e.TLS.ServerName != "" {
			args = append(args, "--sni", e.TLS.ServerName)
		}
		for _, ff := range [][2]string{{"--cacert", f.CACert}, {"--cert", f.Cert}, {"--key", f.Key}} {
			if ff[1] != "" {
				args = append(args, ff[0], ff[1])
			}
		}
		if e.TLS.InsecureSkipVerify {
			args = append(args, "--insecure")
		}
	}
	return args
}

// stderrTail is ": " and the last line redis-benchmark wrote to stderr (its
// reason), without the warning it prints about -a; "" when there is none.
func stderrTail(stderr []byte) string {
	var last string
	for _, l := range strings.Split(strings.TrimSpace(string(stderr)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "Using a password") {
			last = l
		}
	}
	if last == "" {
		return ""
	}
	return ": " + last
}
