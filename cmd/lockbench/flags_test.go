package main

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// TestEveryFlagHasHelp: every flag of every command says what it does.
func TestEveryFlagHasHelp(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Usage == "" {
				t.Errorf("%s --%s: no help", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}

// TestLibraryFieldsHaveFlags: every field compare, sweep and gate name in
// their errors (Go field paths for compare and gate, JSON paths for sweep)
// is named by a flag the command has.
func TestLibraryFieldsHaveFlags(t *testing.T) {
	fresh := func() *pflag.FlagSet { return pflag.NewFlagSet("t", pflag.ContinueOnError) }
	cc, sc := compare.Command{}, sweep.Command{}
	gateFlags := fresh()
	for cmd, c := range map[string]struct {
		set    *flagtag.Set
		fields []string
	}{
		"compare": {cc.Bind(fresh()), []string{"Clients", "Muxes", "Workloads", "Masters", "RTTs", "Baselines",
			"Base.Driver.Backend", "Base.Topology.Etcd.Members", "Base.Topology.RedisAddrs", "Base.Driver.Mux"}},
		"sweep": {sc.Bind(fresh()), []string{"by", "slo", "factor", "max_steps", "max_error_rate", "start", "refine", "op", "muxes",
			"base.workload.rate", "base.driver.mux", "base.workload.workers", "base.driver.client_tuning.rueidis_pipes"}},
		"gate": {flagtag.New(gateFlags).Bind(&gate.Request{}), []string{"ThroughputTol", "LatencyTol", "Alpha", "LatencyOp",
			"Count", "Thresholds", "Baseline", "CPUTol", "CountTol", "Metrics", "StrictEnv", "UntilDecided", "Budget", "BaseCmd", "HeadCmd"}},
	} {
		for _, field := range c.fields {
			name := lab.Flag(field, c.set)
			if c.set.FlagSet().Lookup(name[min(2, len(name)):]) == nil {
				t.Errorf("%s: field %s is named %q, not one of its flags", cmd, field, name)
			}
		}
	}
}

// TestListingHelps: a help that lists what the code knows (its tag is
// text) lists what it knows now.
func TestListingHelps(t *testing.T) {
	root := newRoot()
	for _, tc := range []struct{ cmd, flag, want string }{
		{"compare", "baselines", "all, or a list of " + strings.Join(compare.BaselineNames(), ", ")},
		{"sweep", "op", ": " + strings.Join(sweep.Ops(), "|")},
		{"gate", "op", ": " + strings.ReplaceAll(schema.OpNames(), ", ", "|")},
	} {
		c, _, err := root.Find([]string{tc.cmd})
		if err != nil {
			t.Fatal(err)
		}
		if h := c.Flags().Lookup(tc.flag).Usage; !strings.HasSuffix(h, tc.want) {
			t.Errorf("%s --%s: help %q does not end %q", tc.cmd, tc.flag, h, tc.want)
		}
	}
}

// TestEveryTaggedFieldHasFlag: every field of run's config with a flag tag
// (lab.Config's and the structs it holds) is one of run's flags; compare
// and sweep leave out only what they mean to.
func TestEveryTaggedFieldHasFlag(t *testing.T) {
	var tagged []string
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("flag"), ",")
			switch {
			case name == "-":
			case f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Time{}):
				walk(f.Type)
			case name != "":
				tagged = append(tagged, name)
			}
		}
	}
	walk(reflect.TypeOf(lab.Run{}))
	for _, name := range backends.Names() { // the backends' own settings, held by the Spec
		if b, _ := backends.Lookup(name); b.Config != nil {
			walk(reflect.TypeOf(b.Config()).Elem())
		}
	}
	if len(tagged) < 60 {
		t.Fatalf("only %d tagged fields found: %v", len(tagged), tagged)
	}
	left := map[string]map[string]bool{"run": {}, "compare": {"fault": true}, "sweep": {"fault": true, "redsync-no-fail-fast": true}}
	root := newRoot()
	for cmd, skipped := range left {
		c, _, _ := root.Find([]string{cmd})
		for _, name := range tagged {
			if (c.Flags().Lookup(name) == nil) != skipped[name] {
				t.Errorf("%s --%s: registered %v, want %v", cmd, name, c.Flags().Lookup(name) != nil, !skipped[name])
			}
		}
	}
}
