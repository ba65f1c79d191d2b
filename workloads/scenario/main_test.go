package scenario

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/compose/etcdmember"
	"github.com/lockbench/lockbench/compose/slow"
)

// Etcd members (client-pause on etcd) are this test binary re-executed:
// TestMain serves them. The nine scenario runs (four fault scenarios, three
// client-pause backends, two failovers) each start servers of their own and
// then mostly wait (holds, lease expiries, the Sentinel): all run at once.
func TestMain(m *testing.M) {
	etcdmember.ServeIfChild()
	delayline.ServeIfChild() // the delay line re-executes the test binary
	compose.QuietClientLogs()
	slow.WaitingTests(9)
	os.Exit(m.Run())
}
