package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/prom"
)

// mergedLag is how far behind the generators' own counters the merged
// series may be: a generator's snapshot is its counters at its tick (once a
// second), and generator 0 merges the latest snapshots once a second, so
// the merged count is each generator's count at a tick at most 2 s old,
// plus the time the snapshot takes through the coordination etcd (allowed
// 1 s here, on a loaded machine).
const mergedLag = 3 * time.Second

// scrapeSum is the sum of every series of metric on the /metrics page at
// url whose labels hold all of with (`scope="merged"`).
func scrapeSum(ctx context.Context, url, metric string, with ...string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return sumSeries(resp.Body, metric, with...)
}

func sumSeries(r io.Reader, metric string, with ...string) (float64, error) {
	var sum float64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
lines:
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, metric+"{") && !strings.HasPrefix(line, metric+" ") {
			continue
		}
		for _, w := range with {
			if !strings.Contains(line, w) {
				continue lines
			}
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return sum, sc.Err()
}

// localSample is one generator's own cycles counter at a moment.
type localSample struct {
	at     time.Time
	cycles float64
}

var metricsAt = regexp.MustCompile(`metrics at (http://\S+/metrics)`)

// TestMergedMetricsLive: while three generators run, generator 0's
// /metrics shows the merged cycles, labelled apart from its own, and the
// merged count is the sum of the generators' own counters within what the
// merging allows: never more than their sum scraped just after, never less
// than their sum scraped mergedLag before.
func TestMergedMetricsLive(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 3)
	out := t.TempDir()
	procs := startGenerators(t, lab, 3, out, "--metrics-addr", "127.0.0.1:0", "--workload", "contended", "--keys", "4",
		"--workers", "2", "--warmup", "200ms", "--duration", "10s")
	urls := make([]string, len(procs))
	for i, p := range procs {
		p.waitStderr(t, "metrics at ")
		urls[i] = metricsAt.FindStringSubmatch(p.stderr.String())[1]
	}
	procs[0].waitStderr(t, "generators: 3/3 reporting")
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
	defer cancel()
	var mu sync.Mutex
	local := make([][]localSample, len(procs))
	poll, stopPoll := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for poll.Err() == nil {
				at := time.Now()
				if v, err := scrapeSum(poll, u, prom.MetricCycles); err == nil {
					mu.Lock()
					local[i] = append(local[i], localSample{at, v})
					mu.Unlock()
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
	type mergedSample struct {
		from, to time.Time
		cycles   float64
	}
	var merged []mergedSample
	var p99 float64
	for range 12 {
		time.Sleep(500 * time.Millisecond)
		from := time.Now()
		v, err := scrapeSum(ctx, urls[0], prom.MetricMergedCycles, `scope="merged"`, `generators="3"`)
		if err != nil {
			break // generator 0 ended its window
		}
		merged = append(merged, mergedSample{from, time.Now(), v})
		if q, err := scrapeSum(ctx, urls[0], prom.MetricMergedDuration, `scope="merged"`, `op="cycle"`, `quantile="0.99"`); err == nil && q > 0 {
			p99 = q
		}
	}
	time.Sleep(300 * time.Millisecond) // a local scrape after the last merged one
	stopPoll()
	wg.Wait()
	waitGenerators(t, procs, time.Minute)
	// sumAt is the generators' own counters summed, each at its last sample
	// at or before t (before: true) or its first at or after t.
	sumAt := func(t time.Time, before bool) (float64, bool) {
		var s float64
		for _, ls := range local {
			found := false
			var v float64
			for _, x := range ls {
				if before && !x.at.After(t) {
					v, found = x.cycles, true
				}
				if !before && !x.at.Before(t) {
					v, found = x.cycles, true
					break
				}
			}
			if !found {
				return 0, false
			}
			s += v
		}
		return s, true
	}
	checked := 0
	for _, m := range merged {
		after, okAfter := sumAt(m.to, false)
		lagged, okLagged := sumAt(m.from.Add(-mergedLag), true)
		if !okAfter || m.cycles == 0 {
			continue
		}
		checked++
		t.Logf("merged %.0f cycles; the generators' own: %.0f just after, %.0f %v before", m.cycles, after, lagged, mergedLag)
		if m.cycles > after {
			t.Errorf("merged %.0f cycles, more than the generators' own %.0f scraped just after", m.cycles, after)
		}
		if okLagged && m.cycles < lagged {
			t.Errorf("merged %.0f cycles, fewer than the generators' own %.0f scraped %v before: the merge lags more than it may", m.cycles, lagged, mergedLag)
		}
	}
	if p99 <= 0 {
		t.Errorf("generator 0 never showed a merged cycle p99 (%s)", prom.MetricMergedDuration)
	}
	if checked < 3 {
		t.Errorf("only %d merged scrapes during the run, want at least 3", checked)
	}
}
