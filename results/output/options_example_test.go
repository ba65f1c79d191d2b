package output_test

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// Options as a command of one's own takes them: checked before anything
// is measured, then the one Writer of the result.
func ExampleOptions() {
	opt := output.DefaultOptions()
	opt.Format = "yaml"
	fmt.Println(opt.Validate())

	opt.Format = "csv"
	if err := opt.Validate(); err != nil {
		panic(err)
	}
	sum := &schema.Summary{Runs: []schema.Run{{Name: "mine/uncontended", Workers: 4}}}
	var stdout strings.Builder
	w := opt.Writer(&stdout)
	if err := w.Check(); err != nil { // the JSON file and Out directory can be written
		panic(err)
	}
	if err := w.Write(sum, nil); err != nil {
		panic(err)
	}
	row := strings.Split(stdout.String(), "\n")[1] // under the CSV header
	fmt.Println(strings.Split(row, ",")[0])
	// Output:
	// Format "yaml": want one of table, csv, gobench
	// mine/uncontended
}
