package capacity

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRead: no sweep.json is no sweeps, a malformed one is an error naming
// the file, a written one reads back.
func TestRead(t *testing.T) {
	sw := []Sweep{{Name: "a", Op: "cycle", SLOUS: 2000, Stepped: "rate", Knee: 0, Steps: []Step{{Workers: 4, Rate: 100, CyclesPerS: 99, P99US: 500, OK: true}}}}
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
			got, err := Read(dir)
			if (err != nil) != c.err || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Read: %+v, %v; want %+v (error %v)", got, err, c.want, c.err)
			}
		})
	}
}
