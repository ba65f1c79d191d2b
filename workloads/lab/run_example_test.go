package lab_test

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/workloads/lab"
)

// A command of one's own with `lockbench run`'s flags: bind them, parse,
// and check the run before any server starts; its errors name the flag.
// r.Measure(ctx) would then measure and write it as lockbench run does.
func ExampleBindFlags() {
	r := lab.DefaultRun()
	fs := pflag.NewFlagSet("mybench", pflag.ContinueOnError)
	lab.BindFlags(fs, &r)
	if err := fs.Parse([]string{"--masters", "3", "--workers", "0"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Topology.Redis.Masters, "masters")
	fmt.Println(r.Validate())
	// Output:
	// 3 masters
	// --workers 0: must be at least 1
}
