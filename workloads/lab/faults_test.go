package lab

import (
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/results/schema"
)

// grantsRun is a fault run whose 10 ms grant buckets hold counts.
func grantsRun(counts ...int64) *faultRun {
	fr := &faultRun{started: time.Now()}
	fr.grants = make([]atomic.Int64, len(counts))
	for i, c := range counts {
		fr.grants[i].Store(c)
	}
	return fr
}

func TestFaultAnalytics(t *testing.T) {
	//            0  10 20 30 40 50 60 70 80 90 ms
	fr := grantsRun(5, 5, 0, 0, 0, 0, 3, 0, 4, 0)
	events := []faults.Event{
		{AtMS: 20, Fault: "kill", Action: "kill"},
		{AtMS: 35, Fault: "kill", Action: "restart"},
		{AtMS: 55, Fault: "stop", Action: "resume"},
		{AtMS: 95, Fault: "stop", Action: "heal"},
	}
	for _, c := range []struct {
		name string
		got  any
		want any
	}{
		{"recoveries", fr.recoveries(events), []schema.Recovery{
			{Fault: "kill", AtMS: 35, AfterMS: 25},   // first grant in the 60 ms bucket
			{Fault: "stop", AtMS: 55, AfterMS: 5},    // same bucket
			{Fault: "stop", AtMS: 95, AfterMS: -1}}}, // none after
		{"longest outage from the first fault", fr.longestOutageMS(events, 100), 40.0},
		{"outage ignores the end of the run", fr.longestOutageMS(events, 95), 40.0},
		{"no events, no outage", fr.longestOutageMS(nil, 100), 0.0},
		{"grant counts up to the end", fr.grantCounts(45), []int64{5, 5, 0, 0, 0}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestInfoCPU(t *testing.T) {
	for _, c := range []struct {
		name, info string
		want       time.Duration
		err        bool
	}{
		{"both", "# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.250000\r\nused_cpu_sys_children:9\r\n", 3750 * time.Millisecond, false},
		{"missing user", "used_cpu_sys:1.5\r\n", 0, true},
		{"garbled", "used_cpu_sys:x\r\nused_cpu_user:1\r\n", 0, true},
	} {
		got, err := infoCPU(c.info)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("%s: infoCPU = %v, %v; want %v, error %v", c.name, got, err, c.want, c.err)
		}
	}
}

// A run's report holds each fault's own magnitude: a clock jump's step,
// a clock drift's rate.
func TestFaultSpecsKeepMagnitudes(t *testing.T) {
	fs, _, err := faults.ParseAll([]string{"clock-jump:masters=2:+5s", "clock-drift:masters=3:rate=+1%"})
	if err != nil {
		t.Fatal(err)
	}
	got := faultSpecs(fs)
	if got[0].Jump != 5*time.Second || got[1].Rate != 0.01 || got[1].Kind != faults.ClockDrift {
		t.Errorf("fault specs %+v: want the jump of 5s and the rate of 0.01", got)
	}
}
