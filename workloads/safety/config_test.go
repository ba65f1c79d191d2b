package safety

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/faults"
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
		{"a session-kept lease, whose holder a pause silences", Config{Backends: []string{"zookeeper", "postgres", "rueidislock"}}, ""},
		{"a fault that no session-kept lease takes", Config{Fault: FaultClockJump, Backends: []string{"zookeeper"}}, "backends"},
		{"etcd with a TTL it would round", Config{Backends: []string{"etcd"}, TTL: 1500 * time.Millisecond}, "ttl"},
		{"redlock with a short TTL", Config{Backends: []string{"redlock"}, TTL: 100 * time.Millisecond}, ""},
		{"negative keys", Config{Keys: -2}, "keys"},
		{"negative point limit", Config{PointLimit: -time.Second}, "point_limit"},
		{"a list of faults", Config{Fault: "pause,clock-jump"}, ""},
		{"every fault on every backend", Config{Fault: FaultAll, Backends: []string{BackendsAll}}, ""},
		{"an unknown fault in a list", Config{Fault: "pause,meteor"}, "fault"},
		{"a fault listed twice", Config{Fault: "delay,delay"}, "fault"},
		{"a restart at once", Config{Fault: FaultRestart, Ratios: Ratios{0, 1}}, ""},
		{"a delay of nothing", Config{Fault: FaultDelay, Ratios: Ratios{0}}, "ratios"},
		{"a negative restart delay", Config{Fault: FaultRestart, Ratios: Ratios{-1}}, "ratios"},
		{"redlock over rueidis", Config{Backends: []string{"redlock/rueidis"}}, ""},
		{"an unknown client", Config{Backends: []string{"redlock/jedis"}}, "backends"},
		{"a client for a backend without a choice", Config{Backends: []string{"etcd/goredis"}}, "backends"},
		{"a fault that applies to none of the backends", Config{Fault: FaultClockJump, Backends: []string{"etcd"}}, "backends"},
		{"a fault that applies to one of them", Config{Fault: FaultClockJump, Backends: []string{"redlock", "etcd"}}, ""},
		{"a backend no fault applies to, beside one it does", Config{Backends: []string{"redlock", "zookeeper"}}, ""},
		{"etcd's TTL checked under any fault", Config{Fault: FaultDelay, Backends: []string{"etcd"}, TTL: 1500 * time.Millisecond}, "ttl"},
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
	if len(ps) != 8 || ps[0] != (pointSpec{FaultPause, "redlock", 0.5, false}) || ps[1] != (pointSpec{FaultPause, "redlock", 0.5, true}) || ps[7] != (pointSpec{FaultPause, "etcd", 2, true}) {
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

// The plan line of a grid whose faults do not all apply: each skipped
// pair with its reason, every point's fault applying to its backend.
func TestPlanSkips(t *testing.T) {
	c := Config{Fault: FaultAll, Backends: []string{"redlock", "etcd", "redislock"}}.withDefaults()
	plan := c.Plan()
	for _, want := range []string{"clock-jump on etcd (etcd times its leases", "restart on etcd (etcd members fsync",
		"delay on redislock (its lock lives on one master", "about "} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan %q: no %q", plan, want)
		}
	}
	n := map[string]int{}
	for _, p := range c.points() {
		b, _ := backendOf(p.Backend)
		if why := p.kind().Skip(b.Backend); why != "" {
			t.Errorf("point %+v of a fault that does not apply: %s", p, why)
		}
		n[p.Fault]++
	}
	// pause 5 ratios × 3 backends, clock-jump 4 × 2, delay 3 × 2, restart 3 × 2; fencing both
	want := map[string]int{FaultPause: 30, FaultClockJump: 16, FaultDelay: 12, FaultRestart: 12}
	for f, w := range want {
		if n[f] != w {
			t.Errorf("%s: %d points, want %d", f, n[f], w)
		}
	}
}

// Every registered fault is complete, and the flags' help names it and
// its default grid.
func TestFaultRegistry(t *testing.T) {
	field := func(name string) string {
		f, ok := reflect.TypeOf(Config{}).FieldByName(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		return f.Tag.Get("help")
	}
	for _, name := range FaultNames() {
		f := faultKinds[name]
		if f.Skip == nil || f.Cycle == nil || len(f.Ratios) == 0 || f.Means == "" {
			t.Errorf("%s: incomplete registration", name)
		}
		if rs := f.Ratios; !strings.Contains(field("Ratios"), name+" "+rs.String()) {
			t.Errorf("--ratios help does not give %s's grid %s", name, rs.String())
		}
		if !strings.Contains(field("Fault"), name+" (") {
			t.Errorf("--fault help does not say what %s is", name)
		}
	}
	if fs, err := parseFaults(FaultAll); err != nil || fs[0].Name != FaultPause || len(fs) != len(faultKinds) {
		t.Errorf("all: %v %v", fs, err)
	}
}

// What each fault plays on the servers, by compose/faults spec: which
// servers, by how much, and how often.
func TestFaultPlans(t *testing.T) {
	base := Config{TTL: time.Second, PointLimit: 4 * time.Second}
	for _, c := range []struct {
		fault   string
		servers int
		ratio   float64
		want    []string // the first specs
		n       int      // how many
	}{
		{FaultClockJump, 5, 0.5, []string{"clock-jump:masters=3:+500ms:at=500ms", "clock-jump:masters=3:+500ms:at=1500ms"}, 6},
		{FaultClockJump, 1, 0.01, []string{"clock-jump:masters=1:+10ms:at=500ms"}, 6},
		{FaultDelay, 5, 0.25, []string{"latency:masters=4,5:ms=250"}, 1},
		{FaultDelay, 3, 1, []string{"latency:masters=3:ms=1000"}, 1},
		{FaultRestart, 5, 0, []string{"kill:masters=1,2,3:at=1000ms:restart=immediate", "kill:masters=1,2,3:at=5000ms:restart=immediate"}, 2},
		{FaultRestart, 1, 1, []string{"kill:masters=1:at=1000ms:restart=delayed:delay=1000ms"}, 2},
	} {
		p := faultPoint{Config: base.withDefaults(), Ratio: c.ratio, LockServers: c.servers}
		specs := faultKinds[c.fault].Plan(p)
		if len(specs) != c.n || !slices.Equal(specs[:len(c.want)], c.want) {
			t.Errorf("%s on %d servers, ratio %g: %d specs %q, want %d beginning %q", c.fault, c.servers, c.ratio, len(specs), specs, c.n, c.want)
		}
		fs, _, err := faults.ParseAll(specs)
		if err != nil {
			t.Fatalf("%s: %v", c.fault, err)
		}
		for _, f := range fs {
			if err := f.Check(c.servers, 1, true); err != nil {
				t.Errorf("%s: %v", c.fault, err)
			}
		}
	}
	if got := bareQuorum(5); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("cut off from %v of 5 masters, want 4, 5", got)
	}
	if got := bareQuorum(1); got != nil {
		t.Errorf("cut off from %v of 1 master", got)
	}
}
