package generators_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Two generators measure one contended cell on the same three Redis
// masters, coordinating through an etcd of their own; generator 0 merges
// their shares into one run. In production each generator is a process of
// its own (`lockbench run --generators 2`), here a goroutine.
func ExampleRun() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	masters, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 3, Persistence: "none"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer masters.Close()
	coord, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer coord.Close()

	cell := lab.DefaultConfig()
	for _, s := range masters.Servers {
		_ = cell.Topology.RedisAddrs.Set(s.Endpoint().SecretURL())
	}
	cell.Workload.Workload, cell.Workload.Keys, cell.Workload.Workers = "contended", 4, 2
	cell.Workload.Duration, cell.Workload.Warmup = time.Second, 200*time.Millisecond

	var mu sync.Mutex
	var mergedRun schema.Run
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		g := generators.DefaultConfig()
		g.Generators, g.Index, g.Prefix = 2, i, "example"
		g.Coord = coord.Addrs()
		g.CoordUser, g.CoordPassword = coord.Access.Username, coord.Access.Password
		g.CoordCACert, g.CoordCert, g.CoordKey = coord.Access.CACert, coord.Access.Cert, coord.Access.Key
		if err := g.Check(cell); err != nil {
			fmt.Println(err)
			return
		}
		r := generators.Run{
			Generators: g,
			Plan:       cell,
			Cell:       cell,
			Open: func(ctx context.Context) (*lab.Lab, *schema.Summary, func(), error) {
				l, sum, err := lab.Open(ctx, cell.Topology, nil, cell)
				if err != nil {
					return nil, nil, nil, err
				}
				return l, sum, func() { l.Close() }, nil
			},
			Write: func(sum *schema.Summary, _ map[string]output.Logs, share bool) error {
				if !share {
					mu.Lock()
					mergedRun = sum.Runs[0]
					mu.Unlock()
				}
				return nil
			},
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.Do(ctx)
		}()
	}
	wg.Wait()
	rep := mergedRun.Extra["generators"].(generators.Report)
	fmt.Println("generator 0:", errs[0], "; generator 1:", errs[1])
	fmt.Println(mergedRun.Name, "merged from", len(rep.Each), "generators; missing:", len(rep.Missing))
	fmt.Println("cycles > 0:", mergedRun.Counts.Cycles > 0, "; violations across generators:", rep.CrossReferee.Violations)
	// Output:
	// generator 0: <nil> ; generator 1: <nil>
	// redlock/goredis/pipeline/contended merged from 2 generators; missing: 0
	// cycles > 0: true ; violations across generators: 0
}
