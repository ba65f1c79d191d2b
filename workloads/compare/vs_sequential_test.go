package compare

import (
	"maps"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

func TestVsSequential(t *testing.T) {
	one, half := 1.0, 0.5
	for _, c := range []struct {
		name string
		runs []schema.Run
		want map[string]float64
	}{
		{"none", nil, map[string]float64{}},
		{"some", []schema.Run{{Name: "seq", VsSequential: &one}, {Name: "fanout", VsSequential: &half}, {Name: "baseline"}},
			map[string]float64{"seq": 1, "fanout": 0.5}},
	} {
		if got := vsSequential(c.runs); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
