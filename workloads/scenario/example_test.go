package scenario_test

import (
	"fmt"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/scenario"
)

// A scenario's expected outcome judges a measured one; scenario.Run
// measures it on servers it starts (here the outcome is made up).
func Example() {
	s, _ := scenario.Lookup("majority-down")
	measured := schema.ScenarioOutcome{Violations: 0, LongestOutageMS: 2300, RecoveryMS: 40}
	fmt.Println(s.Name+":", s.Expect.Words)
	fmt.Println("as expected:", s.Expect.Met(measured))
	measured.Violations = 2
	fmt.Println("with 2 violations:", s.Expect.Met(measured))
	// Output:
	// majority-down: unavailable while down, 0 violations, recovers
	// as expected: true
	// with 2 violations: false
}
