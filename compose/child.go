package compose

import (
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/compose/internal/etcdmember"
)

// ServeIfChild serves this process as a child compose started — an etcd
// member or a delay line, both the current program re-executed — and
// exits; in any other process it returns at once. A program that starts
// etcd members or delay lines through compose calls it first in main (and
// in TestMain).
func ServeIfChild() {
	etcdmember.ServeIfChild()
	delayline.ServeIfChild()
}

// EtcdMemberArg is the first argument of an etcd member compose started:
// how to find such a child among a process's children.
const EtcdMemberArg = etcdmember.Arg
