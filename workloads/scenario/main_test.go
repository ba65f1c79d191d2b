package scenario

import (
	"testing"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/testenv"
)

// Etcd members (client-pause on etcd) are this test binary re-executed:
// TestMain serves them. The nine scenario runs (four fault scenarios, three
// client-pause backends, two failovers) each start servers of their own and
// then mostly wait (holds, lease expiries, the Sentinel): all run at once.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){compose.ServeIfChild},
		Before:   clientlog.Quiet,
		Waiting:  9,
	})
}
