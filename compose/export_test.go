package compose

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/schema"
)

// Names the external tests (package compose_test) reach.
var (
	CheckMaster     = checkMaster
	EtcdPingWith    = etcdPingWith
	ZooKeeperDialer = zkTLSDialer
)

// CheckMasterWithin is checkMaster bounded by timeout instead of
// checkTimeout, so that a test of a check that runs out waits less.
func CheckMasterWithin(ctx context.Context, e redisconn.Endpoint, timeout time.Duration) (schema.Server, error) {
	s, _, err := checkMasterWithin(ctx, e, timeout)
	return s, err
}
