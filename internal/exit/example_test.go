package exit_test

import (
	"fmt"

	"github.com/lockbench/lockbench/internal/exit"
)

func ExampleStatus() {
	err := exit.Usagef("--workers %d: must be at least 1", 0)
	code, line := exit.Status(err, func(err error) string { return err.Error() })
	fmt.Println(code, line)
	// Output: 2 --workers 0: must be at least 1
}
