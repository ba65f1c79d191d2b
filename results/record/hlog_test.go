package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestIntervalLogRoundTrip: what the ticks log reads back through
// hdrhistogram-go's log reader to the registry's total counts, interval by
// interval.
func TestIntervalLogRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		service   bool  // open loop: service-time logs too
		intervals []int // cycles recorded per interval
	}{
		{"one interval", false, []int{5}},
		{"several with an empty one", false, []int{100, 0, 37, 1}},
		{"nothing at all", false, []int{0}},
		{"open loop with service time", true, []int{40, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := NewRegistry(tt.service)
			rec := reg.NewRecorder()
			hl := NewIntervalLog()
			for i, n := range tt.intervals {
				for j := range n {
					lat := int64(1000 * (j + 1) * (i + 1))
					rec.Record(schema.OpAcquire, schema.OK, 0, 500, lat)
					rec.Record(schema.OpCycle, schema.OK, 0, 500, 2*lat)
				}
				hl.Add(reg.Tick())
			}
			dir := t.TempDir()
			names, err := hl.WriteDir(dir, "redlock/goredis/fanout/uncontended")
			if err != nil {
				t.Fatal(err)
			}
			want := int(schema.NumOps) - 1
			if tt.service {
				want *= 2
			}
			if len(names) != want {
				t.Fatalf("files %v: want %d: one per op but extend (twice with service time)", names, want)
			}
			logs, err := ReadRunLogs(dir, "redlock/goredis/fanout/uncontended")
			if err != nil {
				t.Fatal(err)
			}
			total := reg.Total()
			for _, op := range []schema.Op{schema.OpAcquire, schema.OpCycle, schema.OpRelease} {
				hs := logs[op.String()]
				if len(hs) != len(tt.intervals) {
					t.Fatalf("%v: %d intervals, want %d", op, len(hs), len(tt.intervals))
				}
				for i, h := range hs {
					if h.StartTimeMs() == 0 || h.EndTimeMs() < h.StartTimeMs() {
						t.Errorf("%v interval %d: stamps %d..%d", op, i, h.StartTimeMs(), h.EndTimeMs())
					}
				}
				got := logs.Total(op.String())
				if got.TotalCount() != total.Latency(op).TotalCount() {
					t.Errorf("%v: hlog count %d, total %d", op, got.TotalCount(), total.Latency(op).TotalCount())
				}
				if got.Max() != total.Latency(op).Max() {
					t.Errorf("%v: hlog max %d, total %d", op, got.Max(), total.Latency(op).Max())
				}
				if !tt.service {
					continue
				}
				svc, err := readHlog(filepath.Join(dir, "redlock-goredis-fanout-uncontended."+op.String()+".service.hlog"))
				if err != nil {
					t.Fatal(err)
				}
				st := NewHistogram()
				for _, h := range svc {
					st.Merge(h)
				}
				if st.TotalCount() != total.Service(op).TotalCount() || st.Max() != total.Service(op).Max() {
					t.Errorf("%v service: hlog %d/%d, total %d/%d", op, st.TotalCount(), st.Max(),
						total.Service(op).TotalCount(), total.Service(op).Max())
				}
			}
			b, err := os.ReadFile(filepath.Join(dir, "redlock-goredis-fanout-uncontended.cycle.hlog"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"#[StartTime: ", "#[BaseTime: ", "Tag=cycle,"} {
				if !strings.Contains(string(b), want) {
					t.Errorf("log lacks %q:\n%s", want, b)
				}
			}
		})
	}
}

func TestIntervalLogEmptyWritesNothing(t *testing.T) {
	dir := t.TempDir()
	names, err := NewIntervalLog().WriteDir(dir, "x")
	if err != nil || len(names) != 0 {
		t.Fatalf("names %v err %v", names, err)
	}
	if logs, err := ReadRunLogs(dir, "x"); err != nil || len(logs) != 0 {
		t.Fatalf("ReadRunLogs of an empty dir: %v, %v; want no logs, no error", logs, err)
	}
}

func TestSlug(t *testing.T) {
	if got := Slug("redlock/rueidis/auto/zipf 2"); got != "redlock-rueidis-auto-zipf-2" {
		t.Fatal(got)
	}
}
