package generators

import (
	"errors"
	"fmt"
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

// TestFirstFew: a list of missing generators names the first five and
// counts the rest, so a thousand missing make one short line.
func TestFirstFew(t *testing.T) {
	many := make([]int, 1000)
	for i := range many {
		many[i] = i
	}
	for _, c := range []struct {
		xs   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "3"},
		{[]int{0, 1, 2, 3, 4}, "0, 1, 2, 3, 4"},
		{many, "0, 1, 2, 3, 4 and 995 more (1000 in all)"},
	} {
		if got := firstFew(c.xs); got != c.want {
			t.Errorf("firstFew(%d ints) = %q, want %q", len(c.xs), got, c.want)
		}
	}
}

// TestGeneratorsBounded: a count of generators beyond MaxGenerators is
// refused by Resolve, naming the field, before anything is allocated.
func TestGeneratorsBounded(t *testing.T) {
	for _, n := range []int{-1, MaxGenerators + 1, 1 << 62} {
		c := DefaultConfig()
		c.Generators, c.Index, c.Coord = n, 0, []string{"127.0.0.1:2379"}
		err := c.Resolve()
		if err == nil || !strings.Contains(err.Error(), "Generators") || !strings.Contains(err.Error(), "1000") {
			t.Errorf("Generators %d: %v, want a refusal naming the field and its bound", n, err)
		}
	}
	c := DefaultConfig()
	c.Generators, c.Index, c.Coord = MaxGenerators, MaxGenerators-1, []string{"127.0.0.1:2379"}
	if err := c.Resolve(); err != nil {
		t.Errorf("Generators %d: %v, want it taken", MaxGenerators, err)
	}
}

// TestCheckGiven: a negative index typed as such is refused; the same
// value by default (not given) is Resolve's, from the environment.
func TestCheckGiven(t *testing.T) {
	for _, c := range []struct {
		index int
		given []string
		err   string
	}{
		{-1, nil, ""},
		{-1, []string{"generators"}, ""},
		{-1, []string{"index"}, "Index -1: negative; must be 0 or more"},
		{-3, []string{"generators", "index"}, "Index -3: negative; must be 0 or more"},
		{0, []string{"index"}, ""},
	} {
		err := Config{Generators: 2, Index: c.index}.CheckGiven(c.given)
		if got := fmt.Sprint(err); (c.err == "" && err != nil) || (c.err != "" && got != c.err) {
			t.Errorf("index %d given %v: %v, want %q", c.index, c.given, err, c.err)
		}
	}
}
