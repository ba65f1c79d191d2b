package backends_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
)

// A backend with settings of its own, registered from this file alone: what
// a new backend's package holds (its Config, its descriptor) and nothing
// else of lockbench's changes. The tests below see it everywhere a
// registered backend is seen.

type toyConfig struct {
	Depth int    `json:"depth" flag:"toy-depth" help:"toy: how deep one attempt goes"`
	Shape string `json:"shape" flag:"toy-shape" help:"toy: the lock's shape"`
}

var errToyOpened = errors.New("toy opened")

func init() {
	backends.Register(backends.Backend{
		Name:      "toy",
		Describe:  "test only: a backend registered by a test file",
		On:        backends.Redis,
		Config:    func() any { return &toyConfig{Depth: 2, Shape: "round"} },
		ConfigKey: "toy",
		Check: func(s backends.Spec) error {
			if c := backends.Settings[toyConfig](s); c.Depth < 0 {
				return fielderr.Invalid("depth", c.Depth, "must not be negative")
			}
			return nil
		},
		Open: func(_ context.Context, s backends.Spec, _ backends.Endpoints) (drivers.Locker, error) {
			c := backends.Settings[toyConfig](s)
			return nil, fmt.Errorf("%w: depth %d, shape %s", errToyOpened, c.Depth, c.Shape)
		},
	})
}

// TestRegisteredFromItsOwnFile: a backend registered in one file is listed,
// gets its defaults, flags, JSON, field errors and Open.
func TestRegisteredFromItsOwnFile(t *testing.T) {
	if !slices.Contains(backends.Names(), "toy") {
		t.Fatalf("Names %v: no toy", backends.Names())
	}
	s := backends.DefaultSpec()
	if c := backends.Settings[toyConfig](s); c != (toyConfig{Depth: 2, Shape: "round"}) {
		t.Errorf("DefaultSpec's toy settings %+v, want its Config's defaults", c)
	}

	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	set := flagtag.New(fs).Bind(&s)
	if h := fs.Lookup("backend").Usage; !strings.Contains(h, "toy") {
		t.Errorf("--backend's help %q does not list toy", h)
	}
	if f := fs.Lookup("toy-depth"); f == nil || f.DefValue != "2" {
		t.Fatalf("--toy-depth: %+v, want it bound with default 2", f)
	}
	if err := fs.Parse([]string{"--backend", "toy", "--toy-depth", "5", "--toy-shape", "square"}); err != nil {
		t.Fatal(err)
	}
	if c := backends.Settings[toyConfig](s); c != (toyConfig{Depth: 5, Shape: "square"}) {
		t.Errorf("after flags: %+v", c)
	}
	if got := flagtag.Lookup([]*flagtag.Set{set}, "toy.depth"); got != "--toy-depth" {
		t.Errorf("toy.depth names flag %q, want --toy-depth", got)
	}

	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"toy":{"depth":5,"shape":"square"}`) {
		t.Errorf("JSON %s: no toy settings under its key", b)
	}
	var back backends.Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if c := backends.Settings[toyConfig](back); c != (toyConfig{Depth: 5, Shape: "square"}) {
		t.Errorf("decoded: %+v", c)
	}

	if _, err := backends.Open(context.Background(), s, backends.Endpoints{}); !errors.Is(err, errToyOpened) || !strings.Contains(err.Error(), "depth 5, shape square") {
		t.Errorf("Open: %v, want toy's Open with its settings", err)
	}
	backends.Update(&s, func(c *toyConfig) { c.Depth = -1 })
	var fe *fielderr.Error
	if err := s.Validate(); !errors.As(err, &fe) || fe.Field != "toy.depth" {
		t.Errorf("Validate: %v, want a field error on toy.depth", err)
	}
}
