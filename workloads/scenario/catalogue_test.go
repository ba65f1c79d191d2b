package scenario

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
)

func TestCatalogue(t *testing.T) {
	want := []string{"minority-down", "majority-down", "restart-no-persistence", "restart-no-persistence-delayed",
		"clock-jump", "clock-jump-within-drift", "failover", "failover-wait", "client-pause"}
	if got := catalogueNames(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error(`Lookup("nope") found something`)
	}
	all := All()
	all[0].Name = "changed"
	if All()[0].Name != want[0] {
		t.Error("All() hands out the catalogue itself")
	}
	for _, s := range All() {
		if s.About == "" || s.Expect.Words == "" {
			t.Errorf("%s: no description or expected outcome", s.Name)
		}
		switch s.Kind {
		case Faults:
			c, err := s.Config()
			if err != nil {
				t.Errorf("%s: %v", s.Name, err)
				continue
			}
			if c.Topology.Redis.Masters != 5 || len(c.Faults) == 0 || c.Topology.NoRedis || c.Topology.NeedsEtcd {
				t.Errorf("%s: topology %+v, faults %v", s.Name, c.Topology, c.Faults)
			}
			if clock := strings.HasPrefix(s.Name, "clock-jump"); c.Topology.Redis.ClockShift != clock {
				t.Errorf("%s: masters under clockshift %v, want %v", s.Name, c.Topology.Redis.ClockShift, clock)
			}
		case ClientPause:
			if len(s.Backends) != 3 {
				t.Errorf("%s: backends %v", s.Name, s.Backends)
			}
			if _, err := s.Config(); err == nil {
				t.Errorf("%s: a cell config for a %s scenario", s.Name, s.Kind)
			}
		case Failover:
		default:
			t.Errorf("%s: kind %q", s.Name, s.Kind)
		}
	}
}

// TestConfigRefusesBadSetups: prepare names what is wrong with a cell.
func TestConfigRefusesBadSetups(t *testing.T) {
	base, _ := Lookup("minority-down")
	for _, c := range []struct {
		name  string
		setup func(s *Scenario)
		want  string
	}{
		{"unknown backend", func(s *Scenario) { s.Setup = withBackend(s.Setup, "nope") }, "nope"},
		{"bad fault", func(s *Scenario) { s.Setup = withFault(s.Setup, "explode:at=1s") }, "explode"},
		{"fault after the end", func(s *Scenario) { s.Setup = withFault(s.Setup, "kill:masters=1:at=9s") }, "not before the end"},
		{"master 6 of 5", func(s *Scenario) { s.Setup = withFault(s.Setup, "kill:masters=6:at=1s") }, "6"},
	} {
		s := base
		c.setup(&s)
		if _, err := s.Config(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), s.Name) {
			t.Errorf("%s: %v, want an error naming %s and %q", c.name, err, s.Name, c.want)
		}
	}
}

func TestRunRefuses(t *testing.T) {
	testenv.Servers(t)
	if _, err := Run(context.Background(), Scenario{Name: "odd", Kind: "odd"}, Observers{}); err == nil || !strings.Contains(err.Error(), "odd") {
		t.Errorf("unknown kind: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := Lookup("minority-down")
	var log strings.Builder
	if _, err := Run(ctx, s, Observers{Log: &log}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled before start: %v, want context.Canceled", err)
	}
	if !strings.HasPrefix(log.String(), "lockbench: scenario minority-down (5s): kill:masters=1,2") {
		t.Errorf("log %q", log.String())
	}
}

func withBackend(setup func(*lab.Config), backend string) func(*lab.Config) {
	return func(c *lab.Config) { setup(c); c.Driver.Backend = backend }
}

func withFault(setup func(*lab.Config), fault string) func(*lab.Config) {
	return func(c *lab.Config) { setup(c); c.Faults = append(c.Faults, fault) }
}
