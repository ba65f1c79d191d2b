package faults

import (
	"testing"

	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/internal/testenv"
)

func TestMain(m *testing.M) {
	// the latency fault's delay line re-executes the test binary
	testenv.Main(m, testenv.Needs{Children: []func(){delayline.ServeIfChild}})
}
