package lab_test

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// A command of one's own with lockbench's flags, and bad input named by
// its flag.
func ExampleBindFlags() {
	cfg := lab.DefaultConfig()
	fs := pflag.NewFlagSet("mybench", pflag.ContinueOnError)
	flags := lab.BindFlags(fs, &cfg)
	_ = fs.Parse([]string{"--workers", "64", "--mux", "pipeline", "--ttl", "1ms"})
	fmt.Println(cfg.Workload.Workers, cfg.Driver.Mux)
	var fe *fielderr.Error
	if err := cfg.Validate(); errors.As(err, &fe) {
		fmt.Println(fe.Name(flags.Flag))
	}
	// Output:
	// 64 pipeline
	// --ttl 1ms: must be larger than the node timeout 50ms
}
