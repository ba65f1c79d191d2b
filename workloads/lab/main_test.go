package lab_test

import (
	"testing"

	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/compose/delayline"
	"github.com/lockbench/lockbench/internal/compose/etcdmember"
	"github.com/lockbench/lockbench/internal/testenv"
)

// Etcd members are this test binary re-executed: TestMain serves them.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){etcdmember.ServeIfChild, delayline.ServeIfChild},
		Before:   clientlog.Quiet,
	})
}
