package compare_test

import (
	"fmt"

	"github.com/lockbench/lockbench/workloads/compare"
)

// Plan a matrix without starting anything: both clients' sequential and
// pipeline strategies on 1 and 3 local masters, with a redsync row beside
// each group. compare.Run(ctx, cfg, compare.Observers{}) would measure it.
func ExampleNewPlan() {
	cfg := compare.Config{ // every field left empty takes its default
		Muxes:     []string{"sequential", "pipeline"},
		Workloads: []string{"uncontended"},
		Masters:   []int{1, 3},
		Baselines: []string{"redsync"},
	}
	p, err := compare.NewPlan(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range p.Cells {
		fmt.Println(c.Masters, c.Config.Name())
	}
	cfg.Clients = []string{"jedis"}
	_, err = compare.NewPlan(cfg)
	fmt.Println(err)
	// Output:
	// 1 redlock/goredis/sequential/uncontended
	// 1 redlock/goredis/pipeline/uncontended
	// 1 redlock/rueidis/sequential/uncontended
	// 1 redlock/rueidis/pipeline/uncontended
	// 1 redsync/fail-fast/uncontended
	// 3 redlock/goredis/sequential/uncontended
	// 3 redlock/goredis/pipeline/uncontended
	// 3 redlock/rueidis/sequential/uncontended
	// 3 redlock/rueidis/pipeline/uncontended
	// 3 redsync/fail-fast/uncontended
	// Clients "jedis": unknown for backend redlock (have goredis, rueidis)
}

// Four rounds of four cells: forward, backward, then the next pair one
// cell further on, so drift over the compare does not always fall on the
// same cells.
func ExampleRoundOrder() {
	for r := range 4 {
		fmt.Println(compare.RoundOrder(4, r))
	}
	// Output:
	// [0 1 2 3]
	// [3 2 1 0]
	// [1 2 3 0]
	// [0 3 2 1]
}
