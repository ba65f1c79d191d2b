package scenario

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/etcdmember"
)

// Etcd members (client-pause on etcd) are this test binary re-executed:
// TestMain serves them.
func TestMain(m *testing.M) {
	etcdmember.ServeIfChild()
	compose.QuietClientLogs()
	os.Exit(m.Run())
}
