package lab_test

import (
	"testing"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/testenv"
)

// Etcd members are this test binary re-executed: TestMain serves them.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){compose.ServeIfChild},
		Before:   clientlog.Quiet,
	})
}
