package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// cellNames are the plan's cells as name@masters[+rtt][+defaults].
func cellNames(p *Plan) []string {
	var out []string
	for _, c := range p.Cells {
		s := fmt.Sprintf("%s@%d", c.Config.Name(), c.Masters)
		if c.Config.RTT > 0 {
			s += "+" + c.Config.RTT.String()
		}
		if c.Config.Driver.Tuning.LibraryDefaults {
			s += "+defaults"
		}
		out = append(out, s)
	}
	return out
}

// TestNewPlanMatrix: the cells are masters × rtt × workload × client × mux
// in that nesting, so cells sharing a topology are consecutive; /defaults
// rows follow their auto cell.
func TestNewPlanMatrix(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"zero value is the default matrix", Config{}, nil}, // checked by count below
		{"nesting", Config{Clients: []string{"goredis", "rueidis"}, Muxes: []string{"sequential", "fanout"},
			Workloads: []string{"uncontended"}, Masters: []int{3, 1}},
			[]string{"redlock/goredis/sequential/uncontended@3", "redlock/goredis/fanout/uncontended@3",
				"redlock/rueidis/sequential/uncontended@3", "redlock/rueidis/fanout/uncontended@3",
				"redlock/goredis/sequential/uncontended@1", "redlock/goredis/fanout/uncontended@1",
				"redlock/rueidis/sequential/uncontended@1", "redlock/rueidis/fanout/uncontended@1"}},
		{"round trips outside workloads", Config{Clients: []string{"rueidis"}, Muxes: []string{"pipeline"},
			Workloads: []string{"uncontended", "contended"}, RTTs: distances{{}, {RTT: time.Millisecond}}},
			[]string{"redlock/rueidis/pipeline/uncontended@5", "redlock/rueidis/pipeline/contended@5",
				"redlock/rueidis/pipeline/uncontended@5+1ms", "redlock/rueidis/pipeline/contended@5+1ms"}},
		{"defaults rows after auto", Config{Clients: []string{"goredis"}, Muxes: []string{"auto", "fanout"},
			Workloads: []string{"contended"}, ClientDefaults: true},
			[]string{"redlock/goredis/auto/contended@5", "redlock/goredis/auto/defaults/contended@5+defaults",
				"redlock/goredis/fanout/contended@5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := cellNames(p)
			if tc.want == nil {
				if n := len(defaultClients) * len(defaultMuxes) * len(defaultWorkloads); len(got) != n {
					t.Fatalf("%d cells, want %d: %v", len(got), n, got)
				}
				if p.Cells[0].Config.Workload.Duration != defaultDuration || p.Config.Base.Driver.Backend != "redlock" {
					t.Errorf("zero Base: duration %v backend %q", p.Cells[0].Config.Workload.Duration, p.Config.Base.Driver.Backend)
				}
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("cells\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, c := range p.Cells {
				if c.Config.Topology.Redis.Masters != c.Masters || c.Config.Topology.NoRedis {
					t.Errorf("%s: topology masters %d noRedis %v", c.Config.Name(), c.Config.Topology.Redis.Masters, c.Config.Topology.NoRedis)
				}
			}
		})
	}
}

// TestNewPlanErrors: bad input names the field and the value at fault.
func TestNewPlanErrors(t *testing.T) {
	ext := lab.DefaultConfig()
	ext.Topology.RedisAddrs = []string{"127.0.0.1:1"}
	etcdBase := lab.DefaultConfig()
	etcdBase.Driver.Backend = "etcd"
	etcd2 := lab.DefaultConfig()
	etcd2.Topology.Etcd.Members = 2
	for _, tc := range []struct {
		name         string
		cfg          Config
		field, value string
	}{
		{"unknown client", Config{Clients: []string{"goredis", "jedis"}}, "Clients", `"jedis"`},
		{"unknown mux", Config{Muxes: []string{"carrier-pigeon"}}, "Muxes", `"carrier-pigeon"`},
		{"unknown workload", Config{Workloads: []string{"bursty"}}, "Workloads", `"bursty"`},
		{"empty clients", Config{Clients: []string{}}, "Clients", ""},
		{"mux twice", Config{Muxes: []string{"fanout", "fanout"}}, "Muxes", `"fanout"`},
		{"masters 0", Config{Masters: []int{3, 0}}, "Masters", "0"},
		{"masters too many", Config{Masters: []int{99}}, "Masters", "99"},
		{"masters twice", Config{Masters: []int{3, 3}}, "Masters", "3"},
		{"masters with external", Config{Base: ext, Masters: []int{1, 3}}, "Masters", ""},
		{"negative rtt", Config{RTTs: distances{{}, {RTT: -time.Millisecond}}}, "RTTs", "-1ms"},
		{"rtt below 1µs", Config{RTTs: distances{{RTT: time.Nanosecond}}}, "RTTs", "1ns"},
		{"rtt twice", Config{RTTs: distances{{RTT: time.Millisecond, Jitter: time.Microsecond}, {RTT: time.Millisecond}}}, "RTTs", "1ms"},
		{"unknown baseline", Config{Baselines: []string{"chubby"}}, "Baselines", `"chubby"`},
		{"baseline twice", Config{Baselines: []string{"etcd", "etcd"}}, "Baselines", `"etcd"`},
		{"a backend without muxes", Config{Base: etcdBase}, "Base.Driver.Backend", "etcd"},
		{"etcd members", Config{Base: etcd2, Baselines: []string{"etcd"}}, "Base.Topology.Etcd.Members", "2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPlan(tc.cfg)
			var fe *fieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Value != tc.value {
				t.Fatalf("err %v: want a FieldError on %s %s", err, tc.field, tc.value)
			}
			want := tc.field + " " // "Masters is empty"
			if tc.value != "" {
				want = tc.field + " " + tc.value + ": "
			}
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%q does not start %q", err, want)
			}
		})
	}
}

// TestNewPlanCheck: Check sees every cell after the matrix's own checks
// and its error comes back as it is; without it the drivers' validation
// still refuses a bad cell.
func TestNewPlanCheck(t *testing.T) {
	var seen []string
	refuse := errors.New("refused by the caller")
	_, err := NewPlan(Config{Muxes: []string{"sequential", "fanout"}, Workloads: []string{"uncontended"},
		Clients: []string{"goredis"}, Check: func(c *lab.Config) error {
			seen = append(seen, c.Name())
			if c.Driver.Mux == "fanout" {
				return refuse
			}
			return nil
		}})
	if err != refuse || !slices.Equal(seen, []string{"redlock/goredis/sequential/uncontended", "redlock/goredis/fanout/uncontended"}) {
		t.Fatalf("err %v, seen %v", err, seen)
	}
	bad := DefaultConfig()
	bad.Base.Driver.Multiplex.Batch = -1
	if _, err := NewPlan(bad); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Fatalf("negative batch: err %v", err)
	}
	ext := DefaultConfig()
	ext.Base.Topology.RedisAddrs = []string{"127.0.0.1:1", "redis://:pw@127.0.0.1:2"}
	p, err := NewPlan(ext)
	if err != nil || p.Cells[0].Masters != 2 || len(p.Cells[0].Config.Topology.RedisMasters) != 2 || !slices.Equal(p.Config.Masters, []int{2}) {
		t.Fatalf("external masters: err %v, plan %+v", err, p)
	}
	if addrs := fmt.Sprint(p.Config.Base.Topology.RedisAddrs); strings.Contains(addrs, "pw") {
		t.Errorf("the summary's addresses hold the password: %s", addrs)
	}
	ext.Base.Topology.RedisAddrs = []string{"127.0.0.1:1", "127.0.0.1:1"}
	var fe *fieldError
	if _, err := NewPlan(ext); !errors.As(err, &fe) || fe.Field != "Base.Topology.RedisAddrs" {
		t.Fatalf("a master twice: err %v, want a FieldError on Base.Topology.RedisAddrs", err)
	}
}

// TestBaselines: each masters count's group ends with a cell per workload
// × baseline, run direct, without client or mux; every cell of a group
// starts the servers any of them needs.
func TestBaselines(t *testing.T) {
	p, err := NewPlan(Config{Clients: []string{"goredis"}, Muxes: []string{"fanout"}, Workloads: []string{"uncontended", "contended"},
		Masters: []int{3, 1}, RTTs: distances{{}, {RTT: time.Millisecond}}, Baselines: []string{"etcd-rpc", "zookeeper"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"redlock/goredis/fanout/uncontended@3", "redlock/goredis/fanout/contended@3",
		"redlock/goredis/fanout/uncontended@3+1ms", "redlock/goredis/fanout/contended@3+1ms",
		"etcd/rpc/uncontended@3", "zookeeper/try/uncontended@3", "etcd/rpc/contended@3", "zookeeper/try/contended@3",
		"redlock/goredis/fanout/uncontended@1", "redlock/goredis/fanout/contended@1",
		"redlock/goredis/fanout/uncontended@1+1ms", "redlock/goredis/fanout/contended@1+1ms",
		"etcd/rpc/uncontended@1", "zookeeper/try/uncontended@1", "etcd/rpc/contended@1", "zookeeper/try/contended@1",
	}
	if got := cellNames(p); !slices.Equal(got, want) {
		t.Fatalf("cells\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range p.Cells {
		tp := c.Config.Topology
		if !tp.NeedsEtcd || !tp.NeedsZooKeeper || tp.NeedsPostgres || tp.NoRedis {
			t.Errorf("%s: etcd %v zk %v pg %v noRedis %v: want the group's etcd and zookeeper and the masters",
				c.Config.Name(), tp.NeedsEtcd, tp.NeedsZooKeeper, tp.NeedsPostgres, tp.NoRedis)
		}
	}
	all, err := NewPlan(Config{Clients: []string{"goredis"}, Muxes: []string{"fanout"}, Workloads: []string{"uncontended"}, Baselines: []string{"all"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all.Config.Baselines, BaselineNames()) || len(all.Cells) != 1+len(BaselineNames()) {
		t.Fatalf("all: baselines %v, %d cells", all.Config.Baselines, len(all.Cells))
	}
	// A backend without muxes is no matrix: its cells would differ only in
	// names that change nothing.
	var fe *fielderr.Error
	if _, err := NewPlan(Config{Base: withBackend("etcd"), Workloads: []string{"uncontended"}}); !errors.As(err, &fe) || fe.Field != "Base.Driver.Backend" {
		t.Errorf("an etcd matrix: %v, want a refusal naming Base.Driver.Backend", err)
	}
}

func withBackend(b string) lab.Config {
	c := lab.DefaultConfig()
	c.Driver.Backend = b
	return c
}

// TestBaselineCellsAreIndependent: each baseline sets its mode in its own
// cell's copy of the base: no cell, nor the base, sees another's.
func TestBaselineCellsAreIndependent(t *testing.T) {
	rows := []string{"etcd-rpc", "etcd-wait", "etcd", "single-wait", "single"}
	p, err := NewPlan(Config{Clients: []string{"goredis"}, Muxes: []string{"fanout"}, Workloads: []string{"uncontended"}, Baselines: rows})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"redlock/goredis/fanout/uncontended@5", "etcd/rpc/uncontended@5", "etcd/client-wait/uncontended@5",
		"etcd/client/uncontended@5", "single/wait1/uncontended@5", "single/wait0/uncontended@5"}
	if got := cellNames(p); !slices.Equal(got, want) {
		t.Fatalf("cells\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ec := backends.Settings[etcdlock.Config](p.Config.Base.Driver); ec.Mode != etcdlock.ModeClient || ec.Wait {
		t.Errorf("the base's etcd settings changed: %+v", ec)
	}
}

// TestPlanCheckGiven: a field given is refused only when it applies to
// none of the plan's cells.
func TestPlanCheckGiven(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		given   []string
		refused string
	}{
		{"nothing given", Config{}, nil, ""},
		{"rueidis tuning, a rueidis cell", Config{Clients: []string{"goredis", "rueidis"}}, []string{"driver.client_tuning.rueidis_pipes"}, ""},
		{"rueidis tuning, no rueidis cell", Config{Clients: []string{"goredis"}}, []string{"driver.client_tuning.rueidis_pipes"}, "driver.client_tuning.rueidis_pipes"},
		{"batch, a pipeline cell", Config{Muxes: []string{"fanout", "pipeline"}}, []string{"driver.multiplex.batch"}, ""},
		{"batch, no pipeline cell", Config{Muxes: []string{"fanout", "auto"}}, []string{"workload.workers", "driver.multiplex.batch"}, "driver.multiplex.batch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = p.CheckGiven(tc.given)
			var fe *fieldError
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && (!errors.As(err, &fe) || fe.Field != tc.refused):
				t.Errorf("err %v: want a FieldError on %s", err, tc.refused)
			}
		})
	}
}

// TestConfigCheckGiven: what the given fields ask that a matrix cannot do
// is a field error naming the field, and the one to use instead.
func TestConfigCheckGiven(t *testing.T) {
	external := DefaultConfig()
	external.Base.Topology.RedisAddrs = []string{"127.0.0.1:6379"}
	external.Masters = []int{3}
	zero := DefaultConfig()
	zero.Repeat = 0
	flag := func(f string) string { return "<" + f + ">" }
	for _, c := range []struct {
		name  string
		cfg   Config
		given []string
		want  string // "": no error
	}{
		{"lists", DefaultConfig(), []string{"masters", "repeat", "workload.workers"}, ""},
		{"one client", DefaultConfig(), []string{"workload.workers", "driver.client"}, "<driver.client> is one cell's (compare takes <Clients>, a list)"},
		{"one mux", DefaultConfig(), []string{"driver.mux"}, "<driver.mux> is one cell's (compare takes <Muxes>, a list)"},
		{"one workload", DefaultConfig(), []string{"workload.workload"}, "<workload.workload> is one cell's (compare takes <Workloads>, a list)"},
		{"repeat 0 given", zero, []string{"repeat"}, "<Repeat> 0: must be at least 1"},
		{"repeat 0 by default", zero, nil, ""},
		{"masters with external", external, []string{"masters"}, "<Masters> 3: the external masters are the topology (not with <Base.Topology.RedisAddrs>)"},
		{"external alone", external, nil, ""},
	} {
		err := c.cfg.CheckGiven(c.given)
		var fe *fielderr.Error
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want none", c.name, err)
		case c.want != "" && !errors.As(err, &fe):
			t.Errorf("%s: %v, want a field error", c.name, err)
		case c.want != "" && fe.Name(flag) != c.want:
			t.Errorf("%s: %q, want %q", c.name, fe.Name(flag), c.want)
		}
	}
}
