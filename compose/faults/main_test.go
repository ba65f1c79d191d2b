package faults

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/compose/delayline"
)

func TestMain(m *testing.M) {
	delayline.ServeIfChild() // the latency fault's delay line re-executes the test binary
	os.Exit(m.Run())
}
