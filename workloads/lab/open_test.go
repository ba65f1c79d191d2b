package lab_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestOpen: the lab is up and the summary holds the config given, the
// servers' versions and facts, its start before the servers'; a config
// that does not serialise is an error, the servers stopped again.
func TestOpen(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 1
	var log bytes.Buffer
	before := time.Now()
	l, sum, err := lab.Open(ctx, cfg.Topology, &log, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var back lab.Config
	if err := json.Unmarshal(sum.Config, &back); err != nil || back.Topology.Redis.Masters != 1 {
		t.Errorf("config %s (%v): want the config given", sum.Config, err)
	}
	if sum.Versions["redis-server"] == "" || len(sum.Servers) != 1 || sum.Started.Before(before) {
		t.Errorf("versions %v, servers %+v, started %v: want the lab's facts, started after %v", sum.Versions, sum.Servers, sum.Started, before)
	}
	if !strings.Contains(log.String(), "starting 1 redis masters… ready") {
		t.Errorf("log %q: want the start-up phase", log.String())
	}
	if _, _, err := lab.Open(ctx, cfg.Topology, nil, map[string]any{"bad": make(chan int)}); err == nil {
		t.Error("a config that does not serialise: no error")
	}
}
