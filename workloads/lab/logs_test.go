package lab

import (
	"errors"
	"testing"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// TestLogs: a cell with an interval log is listed by its run's name, one
// without is left out.
func TestLogs(t *testing.T) {
	log := &record.IntervalLog{}
	logs := Logs([]Cell{{Run: schema.Run{Name: "a"}, Hlog: log}, {Run: schema.Run{Name: "b"}}})
	if len(logs) != 1 || logs["a"] != log {
		t.Fatalf("logs %v: want a's alone", logs)
	}
}

// TestResolveExternal: a bad external master is a field error under
// topology; no external server is no error.
func TestResolveExternal(t *testing.T) {
	c := DefaultConfig()
	if err := c.ResolveExternal(); err != nil {
		t.Fatalf("local servers: %v", err)
	}
	c.Topology.RedisAddrs = []string{"nohost"}
	var fe *fielderr.Error
	if err := c.ResolveExternal(); !errors.As(err, &fe) || fe.Field != "topology.redis_addrs" {
		t.Fatalf("err %v, want a field error of topology.redis_addrs", err)
	}
}
