package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRead: no sweep.json is no sweeps, a malformed one is an error naming
// the file, a written one reads back.
func TestRead(t *testing.T) {
	sw := []Sweep{{Name: "a", Op: "cycle", SLOUS: 2000, Stepped: "rate", Knee: 0, Steps: []SweepStep{{Workers: 4, Rate: 100, CyclesPerS: 99, P99US: 500, OK: true}}}}
	cases := []struct {
		name, content string
		want          []Sweep
		err           bool
	}{
		{"absent", "", nil, false},
		{"malformed", "{", nil, true},
		{"written", `[{"name":"a","op":"cycle","slo_us":2000,"stepped":"rate","knee":0,"steps":[{"workers":4,"rate":100,"cycles_per_s":99,"p99_us":500,"errors":0,"ok":true}]}]`, sw, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.content != "" {
				if err := os.WriteFile(filepath.Join(dir, "sweep.json"), []byte(c.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ReadSweeps(dir)
			if (err != nil) != c.err || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Read: %+v, %v; want %+v (error %v)", got, err, c.want, c.err)
			}
		})
	}
}

// TestSweepKeys: the capacity answer's keys as sweep.json carries them.
func TestSweepKeys(t *testing.T) {
	sw := Sweep{Name: "a", Knee: 0, KneeInterval: []float64{900, 1100}, SafeRate: 900,
		USL:  &USL{Lambda: 1000, Sigma: 0.05, Kappa: 0.001, PeakWorkers: 30.8, R2: 0.99},
		Plan: &CapacityPlan{TargetRate: 20000, Binds: "masters"}}
	b, err := json.Marshal(sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"knee_interval":[900,1100]`, `"safe_rate":900`,
		`"usl":{"lambda":1000,"sigma":0.05,"kappa":0.001,"peak_workers":30.8,"r2":0.99}`, `"target_rate":20000`, `"binds":"masters"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("no %s in %s", k, b)
		}
	}
	var back Sweep
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, sw) {
		t.Errorf("read back %+v, %v", back, err)
	}
}
