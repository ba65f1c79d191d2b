package render

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestCommonPrefix: the leading parts every run name shares, never a
// whole name.
func TestCommonPrefix(t *testing.T) {
	runs := func(names ...string) []schema.Run {
		var rs []schema.Run
		for _, n := range names {
			rs = append(rs, schema.Run{Name: n})
		}
		return rs
	}
	for _, tc := range []struct {
		runs []schema.Run
		want string
	}{
		{runs("redlock/goredis/pipeline/uncontended", "redlock/rueidis/auto/contended"), "redlock/"},
		{runs("redlock/goredis/pipeline/uncontended", "redlock/goredis/auto/uncontended"), "redlock/goredis/"},
		{runs("redlock/goredis/pipeline/uncontended", "redlock/goredis/pipeline/uncontended"), "redlock/goredis/pipeline/"},
		{runs("redlock/goredis/pipeline/uncontended", "etcd/client/uncontended"), ""},
		{runs("redlock/goredis/pipeline/uncontended"), ""},
		{runs("a", "a/b"), ""},
	} {
		if got := commonPrefix(tc.runs); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.runs, got, tc.want)
		}
	}
}

// TestTableFitsAndFlags: a compare's names fit 100 columns without
// wrapping (their shared part said in the header), and a cell whose
// rounds disagree beyond ±50 % is flagged with a note saying why.
func TestTableFitsAndFlags(t *testing.T) {
	var runs []schema.Run
	for _, w := range []string{"uncontended", "contended"} {
		for _, c := range []string{"goredis", "rueidis"} {
			for _, m := range []string{"sequential", "fanout", "pipeline", "auto"} {
				for round, cps := range []float64{1000, 3000, 1100} {
					if m != "auto" {
						cps = 1000 + float64(round)
					}
					runs = append(runs, schema.Run{Name: "redlock/" + c + "/" + m + "/" + w, Repeat: round + 1,
						Throughput: schema.Throughput{CyclesPerS: cps}, Counts: schema.Counts{Attempts: 10, Acquired: 10, Cycles: 10}})
				}
			}
		}
	}
	var b strings.Builder
	if err := WriteTable(&b, runs, TableOptions{Ratios: map[string]float64{}, RatioName: "vs seq"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > TableWidth {
			t.Errorf("%d columns: %q", n, line)
		}
	}
	if !strings.Contains(out, "\n rueidis/sequential/uncontended ") || !strings.Contains(out, "redlock/…") {
		t.Errorf("names not whole on one line, or their shared part unsaid:\n%s", out)
	}
	if strings.Count(out, "%!") != 4 || !strings.Contains(out, "!: a spread beyond ±50 %") {
		t.Errorf("the four auto cells (spread ±173 %%) flagged with a note, the rest not:\n%s", out)
	}
}
