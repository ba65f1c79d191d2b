package generators_test

import (
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/testenv"
)

// The coordination etcd's member is this test binary re-executed:
// TestMain serves it.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){compose.ServeIfChild},
		Before:   clientlog.Quiet,
	})
}
