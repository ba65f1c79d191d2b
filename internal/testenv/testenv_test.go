package testenv_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestNoServersIsComposes: the variable the -short tier sets is the one
// compose's server start refuses on.
func TestNoServersIsComposes(t *testing.T) {
	if testenv.NoServersEnv != procs.NoServersEnv {
		t.Fatalf("testenv sets %s, compose refuses on %s", testenv.NoServersEnv, procs.NoServersEnv)
	}
}

// TestShortTierStartsNoServer: in the -short tier (Main sets NoServersEnv)
// a server start fails with an error that says why, and leaves nothing
// running. make test-unit sets the variable for every package.
func TestShortTierStartsNoServer(t *testing.T) {
	if !testing.Short() {
		t.Setenv(testenv.NoServersEnv, "1")
	} else if os.Getenv(testenv.NoServersEnv) == "" {
		t.Fatalf("-short, yet %s is not set", testenv.NoServersEnv)
	}
	r, err := compose.StartRedis(context.Background(), compose.RedisOptions{Masters: 1})
	if err == nil {
		r.Close()
		t.Fatal("a redis-server started in the unit-test tier")
	}
	if !strings.Contains(err.Error(), testenv.NoServersEnv) {
		t.Errorf("refusal %q does not say why", err)
	}
}

func TestMain(m *testing.M) { testenv.Main(m, testenv.Needs{}) }
