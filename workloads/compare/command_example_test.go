package compare_test

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/workloads/compare"
)

// compare's command line in a command of one's own: bind its flags,
// parse, and plan before any server starts. cc.Measure(ctx, os.Stdout, p)
// would measure the plan and write it as lockbench compare does.
func ExampleCommand_Plan() {
	cc := compare.NewCommand()
	fs := pflag.NewFlagSet("mycompare", pflag.ContinueOnError)
	cc.Bind(fs)
	if err := fs.Parse([]string{"--clients", "rueidis", "--muxes", "fanout,auto", "--workloads", "uncontended"}); err != nil {
		fmt.Println(err)
		return
	}
	var given []string
	fs.Visit(func(f *pflag.Flag) { given = append(given, f.Name) })
	p, err := cc.Plan(given)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range p.Cells {
		fmt.Println(c.Config.Name())
	}
	// Output:
	// redlock/rueidis/fanout/uncontended
	// redlock/rueidis/auto/uncontended
}
