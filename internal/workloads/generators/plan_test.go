package generators

import (
	"errors"
	"strings"
	"testing"
)

func TestComparePlans(t *testing.T) {
	for _, c := range []struct {
		name, mine, theirs, want string
	}{
		{"same", `{"a":1,"b":{"c":"x"}}`, `{"b":{"c":"x"},"a":1}`, ""},
		{"a nested field", `{"a":1,"b":{"c":"x"}}`, `{"a":1,"b":{"c":"y"}}`, `b.c is "x" here, "y" at generator 0`},
		{"a field only here", `{"a":1,"z":true}`, `{"a":1}`, `z is true here, null at generator 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := comparePlans([]byte(c.mine), []byte(c.theirs))
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, errPlanMismatch) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a mismatch naming %q", err, c.want)
			}
		})
	}
}

func TestResolveIndexFromTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		name, env string
		index     int
		want      string // error naming a field, or ""
	}{
		{"from the job", "3", -1, ""},
		{"flag wins", "3", 1, ""},
		{"not a number", "x", -1, "Index"},
		{"out of range", "4", -1, "Index"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(IndexEnv, c.env)
			cfg := DefaultConfig()
			cfg.Generators, cfg.Index, cfg.Coord = 4, c.index, []string{"e:2379"}
			err := cfg.Resolve()
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error naming %s", err, c.want)
			case c.want == "" && c.index < 0 && cfg.Index != 3, c.want == "" && c.index >= 0 && cfg.Index != c.index:
				t.Fatalf("index %d", cfg.Index)
			}
		})
	}
}
