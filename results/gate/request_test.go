package gate

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results"
)

// TestRun: a request's thresholds are parsed and its summaries read and
// judged; a bad threshold or path is a field error of its Request field.
func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	if err := src("", 1, results.Run{Name: "a", Throughput: results.Throughput{CyclesPerS: 100}}).Summary.WriteJSON(file); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		set    func(*Request)
		failed bool
		field  string // "" for a verdict
	}{
		{"pass", func(r *Request) { r.Thresholds = []string{"cycles_per_s>50"} }, false, ""},
		{"fail", func(r *Request) { r.Thresholds = []string{"cycles_per_s>500"} }, true, ""},
		{"bad threshold", func(r *Request) { r.Thresholds = []string{"cycles_per_s?5"} }, false, "Thresholds"},
		{"missing baseline", func(r *Request) { r.Baseline = []string{file + ".none"} }, false, "Baseline"},
		{"bad option", func(r *Request) { r.Thresholds, r.Alpha = []string{"cycles_per_s>50"}, 2 }, false, "Alpha"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRequest()
			r.Current = []string{file}
			tc.set(&r)
			v, err := Run(r)
			if tc.field != "" {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != tc.field {
					t.Fatalf("err %v, want a field error of %s", err, tc.field)
				}
				return
			}
			if err != nil || v.Failed != tc.failed {
				t.Fatalf("verdict failed=%v, err %v: want failed=%v", v.Failed, err, tc.failed)
			}
		})
	}
}
