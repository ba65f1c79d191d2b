package compose

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/procs"
)

// TestStartRefusedWithoutServers: with procs.NoServersEnv set, no server process
// starts, whatever it is.
func TestStartRefusedWithoutServers(t *testing.T) {
	t.Setenv(procs.NoServersEnv, "1")
	p := &process{name: "true", argv: []string{"true"}}
	err := p.start()
	if err == nil {
		_ = p.stop(0)
		t.Fatal("a process started with " + procs.NoServersEnv + " set")
	}
	if !strings.Contains(err.Error(), procs.NoServersEnv) {
		t.Errorf("error %q does not name %s", err, procs.NoServersEnv)
	}
	if p.Pid() != 0 {
		t.Errorf("pid %d after a refused start", p.Pid())
	}
}
