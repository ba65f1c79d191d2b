// Package all registers every backend lockbench ships beside the Redlock
// core (which drivers/backends registers itself): importing it for its
// side effects, as workloads/lab does, makes them all available by name.
// Adding a backend is its own package plus one line here.
package all

import (
	_ "github.com/lockbench/lockbench/drivers/bsmlock"     // redislock
	_ "github.com/lockbench/lockbench/drivers/etcdlock"    // etcd
	_ "github.com/lockbench/lockbench/drivers/pglock"      // postgres
	_ "github.com/lockbench/lockbench/drivers/redsync"     // redsync
	_ "github.com/lockbench/lockbench/drivers/rueidislock" // rueidislock
	_ "github.com/lockbench/lockbench/drivers/single"      // single
	_ "github.com/lockbench/lockbench/drivers/zklock"      // zookeeper
)
