package safety

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		field string // "" valid
	}{
		{"defaults", Config{}, ""},
		{"the done-when grid", Config{Backends: []string{"redlock", "etcd"}, Ratios: Ratios{0.5, 2}, Fencing: FencingBoth}, ""},
		{"unknown fault", Config{Fault: "meteor"}, "fault"},
		{"unknown fencing", Config{Fencing: "maybe"}, "fencing"},
		{"negative grants", Config{Grants: -1}, "grants"},
		{"zero ratio", Config{Ratios: Ratios{0.5, 0}}, "ratios"},
		{"huge ratio", Config{Ratios: Ratios{1000}}, "ratios"},
		{"unknown backend", Config{Backends: []string{"redlock", "nope"}}, "backends"},
		{"a lease that outlives the pause", Config{Backends: []string{"zookeeper"}}, "backends"},
		{"etcd with a TTL it would round", Config{Backends: []string{"etcd"}, TTL: 1500 * time.Millisecond}, "ttl"},
		{"redlock with a short TTL", Config{Backends: []string{"redlock"}, TTL: 100 * time.Millisecond}, ""},
		{"negative keys", Config{Keys: -2}, "keys"},
		{"negative point limit", Config{PointLimit: -time.Second}, "point_limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Validate()
			var fe *fielderr.Error
			switch {
			case c.field == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case c.field == "":
			case !errors.As(err, &fe):
				t.Fatalf("Validate: %v, want a field error of %s", err, c.field)
			case fe.Field != c.field:
				t.Fatalf("Validate names %q (%v), want %q", fe.Field, err, c.field)
			}
		})
	}
}

func TestRatiosFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		bad  bool
	}{
		{"0.5,2", "0.5,2", false},
		{" 0.1, 1.1 ,2", "0.1,1.1,2", false},
		{"1,x", "", true},
	} {
		var r Ratios
		err := r.Set(c.in)
		if (err != nil) != c.bad {
			t.Errorf("Set(%q): %v", c.in, err)
			continue
		}
		if !c.bad && r.String() != c.want {
			t.Errorf("Set(%q) = %s, want %s", c.in, r.String(), c.want)
		}
	}
}

// The grid is backend × ratio × fencing, off before on; the plan line
// states its size, its time and the budget a bound of 1 per 10⁶ needs.
func TestPlan(t *testing.T) {
	c := Config{Backends: []string{"redlock", "etcd"}, Ratios: Ratios{0.5, 2}, Fencing: FencingBoth}
	ps := c.withDefaults().points()
	if len(ps) != 8 || ps[0] != (pointSpec{"redlock", 0.5, false}) || ps[1] != (pointSpec{"redlock", 0.5, true}) || ps[7] != (pointSpec{"etcd", 2, true}) {
		t.Fatalf("points %v", ps)
	}
	typ, most := c.Estimate()
	if !(typ > 0 && typ <= most) {
		t.Fatalf("estimate %v, at most %v", typ, most)
	}
	plan := c.Plan()
	for _, want := range []string{"8 points", "3000000 grants"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan %q: no %q", plan, want)
		}
	}
}
