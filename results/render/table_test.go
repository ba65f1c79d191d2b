package render

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lockbench/lockbench/results/schema"
)

// tableRuns are rows as wide as real ones: the longest names a compare
// prints, big counts, every optional column triggered (a stall, cycles
// unfinished for seconds).
func tableRuns() []schema.Run {
	var runs []schema.Run
	names := []string{"redlock/goredis/sequential/uncontended", "redlock/rueidis/pipeline/contended/7m",
		"etcd/client-wait/session-per-cycle/contended", "redsync/goredis/contended"}
	durability := []string{"memory ×5", "AOF always ×5", "fsync raft×3", "memory ×5"}
	for i, n := range names {
		runs = append(runs, schema.Run{
			Name: n, Durability: durability[i], Workers: 256, Rate: 20000, Interrupted: i == 1,
			Throughput: schema.Throughput{CyclesPerS: 123456, AttemptsPerS: 1234567},
			LatencyUS: map[string]schema.Percentiles{
				"acquire": {Count: 1, P50: 12345, P99: 123456}, "acquire_total": {Count: 1, P99: 1234567}, "cycle": {Count: 1, P50: 12345, P99: 1234567}},
			Counts:         schema.Counts{Attempts: 12345678, Acquired: 1234567, Busy: 1234567, SplitBrain: 1234567, Timeouts: 12345, Errors: 12345, Violations: 12, StaleOverlaps: 3},
			SplitBrainRate: 0.5, RetriesPerAcquire: 9.99, Fairness: 0.999, ValidityMarginUS: &schema.Percentiles{Count: 1, P50: 9999000}, MissedStarts: 12345,
			Unfinished: &schema.Unfinished{Cycles: 256, MaxWaitUS: 12.3e6},
		})
		runs[i].Counts.Cycles = 1234567
	}
	runs[1].Stalls = []schema.Stall{{Start: 1234 * time.Millisecond, Duration: 99 * time.Second, AtEnd: true, Cause: schema.CauseLeftoverKey,
		Attempts: 1234567, Busy: 123456, SplitBrain: 1111111, ReleaseErrors: 1}}
	return runs
}

// TestTableWidth: the default table of every kind fits TableWidth columns
// (or the width asked for), and the essentials are all there.
func TestTableWidth(t *testing.T) {
	runs := tableRuns()
	ratios := map[string]float64{}
	for _, r := range runs {
		ratios[r.Name] = 12.34
	}
	var rounds []schema.Run // compare --repeat 3: every row in three rounds
	for i := 1; i <= 3; i++ {
		for _, r := range runs {
			r.Repeat, r.Throughput.CyclesPerS = i, r.Throughput.CyclesPerS*(1+float64(i)/10)
			rounds = append(rounds, r)
		}
	}
	cases := []struct {
		name  string
		runs  []schema.Run
		opt   TableOptions
		width int
		heads []string
	}{
		{"run", runs, TableOptions{}, TableWidth, []string{"run", "durability", "cycles/s", "acquire", "cycle", "split", "errors", "viola", "stale"}},
		{"compare", runs, TableOptions{Ratios: ratios, RatioName: "vs seq"}, TableWidth, []string{"vs seq"}},
		{"terminal 90", runs, TableOptions{Ratios: ratios, MaxWidth: 90}, 90, []string{"ratio"}},
		{"compare --repeat", rounds, TableOptions{Ratios: ratios, RatioName: "vs seq"}, TableWidth, []string{"vs seq", "spread", "±8.3%", "medians of 3 rounds"}},
		{"compare --repeat, terminal 90", rounds, TableOptions{Ratios: ratios, MaxWidth: 90}, 90, []string{"spread", "medians of 3 rounds"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteTable(&b, c.runs, c.opt); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if n := utf8.RuneCountInString(line); n > c.width {
					t.Errorf("line %d is %d columns, over %d: %q", i, n, c.width, line)
				}
			}
			for _, h := range c.heads {
				if !strings.Contains(out, h) {
					t.Errorf("no %q column:\n%s", h, out)
				}
			}
			if !strings.Contains(out, "* interrupted") {
				t.Errorf("interrupted run not marked:\n%s", out)
			}
			if !strings.Contains(out, "7m !") || !strings.Contains(out, "STALLED 99.00s from +1.23s to the window's end: leftover-key") {
				t.Errorf("stalled run not marked, or its stall not told:\n%s", out)
			}
			if testing.Verbose() {
				fmt.Println(out)
			}
		})
	}
}

// TestTableWideHasEverything: --wide shows every column, unbounded (a
// terminal wraps its lines; a file keeps them whole).
func TestTableWideHasEverything(t *testing.T) {
	runs := tableRuns()
	runs[0].Repeat = 1                                     // a round of compare --repeat: the spread column
	runs[1].Cost = &schema.Cost{DelayCPUUSPerCycle: 123.4} // a cell behind a delay line: the delay column
	var b strings.Builder
	if err := WriteTable(&b, runs, TableOptions{Wide: true, MaxWidth: 80}); err != nil {
		t.Fatal(err)
	}
	for _, c := range columns {
		if c.head == "ratio" {
			continue
		}
		first := strings.SplitN(c.head, "\n", 2)[0]
		if !strings.Contains(b.String(), first) {
			t.Errorf("--wide lacks %q", first)
		}
	}
}

// TestCSV: one header and one row per run, every row as long as the
// header, and values that read back as what the run holds.
func TestCSV(t *testing.T) {
	runs := tableRuns()
	runs[0].Name = `odd, "name"`
	vs := 2.5
	runs[0].VsSequential = &vs
	var b strings.Builder
	if err := WriteCSV(&b, runs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(runs)+1 {
		t.Fatalf("%d records, want header + %d", len(recs), len(runs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for j, r := range runs {
		rec := recs[j+1]
		for name, want := range map[string]string{"name": r.Name, "cycles_per_s": "123456", "cycle_p99_us": "1.234567e+06",
			"violations": "12", "interrupted": fmt.Sprint(r.Interrupted)} {
			if got := rec[col[name]]; got != want {
				t.Errorf("run %d %s = %q, want %q", j, name, got, want)
			}
		}
	}
	if got := recs[1][col["vs_sequential"]]; got != "2.5" {
		t.Errorf("vs_sequential = %q, want 2.5", got)
	}
}

// TestTableStaleColumn: the table shows stale overlaps only when a run has
// some.
func TestTableStaleColumn(t *testing.T) {
	for _, n := range []int64{0, 3} {
		var b strings.Builder
		if err := WriteTable(&b, []schema.Run{{Name: "r", Counts: schema.Counts{StaleOverlaps: n}}}, TableOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "stale"); got != (n > 0) {
			t.Errorf("stale overlaps %d: column shown %v\n%s", n, got, b.String())
		}
	}
}

// TestTableSplitShare: the split column is split-brain attempts of all
// attempts, so a run with a few split rounds and no busy ones is not
// "100 % split".
func TestTableSplitShare(t *testing.T) {
	c := schema.Counts{Attempts: 15439, Acquired: 15386, SplitBrain: 53}
	r := schema.Run{Name: "r", Counts: c}
	r.SplitBrainRate, r.RetriesPerAcquire = c.Rates()
	var b strings.Builder
	if err := WriteTable(&b, []schema.Run{r}, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[0]+lines[1], "split") || !strings.Contains(lines[1], "% att") {
		t.Fatalf("no split column of attempts:\n%s", b.String())
	}
	if row := lines[3]; !strings.Contains(row, " 0.3 ") || strings.Contains(row, "100.0") {
		t.Errorf("split share of 53/15439 attempts not 0.3 %%:\n%s", b.String())
	}
}

// TestTableDurabilityColumn: runs that keep their lock state differently
// (a debate table of backends) show where; runs that all keep it alike
// spend no column on it.
func TestTableDurabilityColumn(t *testing.T) {
	for _, tc := range []struct {
		durability []string
		shown      bool
	}{
		{[]string{"memory ×5", "memory ×5"}, false},
		{[]string{"memory ×5", "fsync raft×3", "memory ×1"}, true},
	} {
		var runs []schema.Run
		for i, d := range tc.durability {
			runs = append(runs, schema.Run{Name: "r" + string(rune('a'+i)), Durability: d})
		}
		var b strings.Builder
		if err := WriteTable(&b, runs, TableOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "durability"); got != tc.shown {
			t.Errorf("%v: column shown %v\n%s", tc.durability, got, b.String())
		}
		if tc.shown && !strings.Contains(b.String(), "fsync raft×3") {
			t.Errorf("durability values missing:\n%s", b.String())
		}
	}
}

// TestTableNameNotBrokenInWords: the run name column is as wide as the
// table leaves it, so a name that fits it whole, or after a "/", is never
// broken inside a word.
func TestTableNameNotBrokenInWords(t *testing.T) {
	ratios := map[string]float64{}
	var runs []schema.Run
	for _, n := range []string{"redlock/rueidis/auto/uncontended", "redlock/goredis/sequential/uncontended", "redlock/rueidis/auto/contended"} {
		runs = append(runs, schema.Run{Name: n, Repeat: 1, Throughput: schema.Throughput{CyclesPerS: 35308},
			LatencyUS: map[string]schema.Percentiles{"acquire": {Count: 1, P50: 1304, P99: 26400}, "cycle": {Count: 1, P99: 1348469}}})
		ratios[n] = 11.48
	}
	for _, width := range []int{100, 96, 90} {
		var b strings.Builder
		if err := WriteTable(&b, runs, TableOptions{MaxWidth: width, Ratios: ratios, RatioName: "vs seq"}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "↩") {
			t.Errorf("width %d: a name broken inside a word:\n%s", width, b.String())
		}
	}
}
