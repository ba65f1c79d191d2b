package slow_test

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// A node timeout that holds on an idle machine, scaled for this one.
func ExampleD() {
	timeout := slow.D(200 * time.Millisecond)
	fmt.Println(timeout >= 200*time.Millisecond)
	// Output: true
}
