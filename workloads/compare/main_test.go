package compare_test

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/compose/etcdmember"
)

// Etcd members (the baselines' etcd rows) are this test binary
// re-executed: TestMain serves them.
func TestMain(m *testing.M) {
	etcdmember.ServeIfChild()
	delayline.ServeIfChild() // the delay line re-executes the test binary
	compose.QuietClientLogs()
	os.Exit(m.Run())
}
