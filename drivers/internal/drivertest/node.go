package drivertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/multiplex"
)

// Masters are the redis-server masters the node suite runs against
// (compose.Redis is one): how to reach them, and freezing master i as a
// stalled machine would (SIGSTOP) and thawing it.
type Masters interface {
	Endpoints() []redisconn.Endpoint
	Pause(i int) error
	Resume(i int) error
}

// NodeConfig is the client mode a node test asks an adapter for.
type NodeConfig struct {
	PoolSize    int
	Auto        bool          // the client's own auto-pipelining
	NodeTimeout time.Duration // for clients whose auto mode needs a read/write timeout
}

// Dialer opens one adapter node per address; closeAll closes them.
type Dialer[N multiplex.BatchNode] struct {
	Dial     func(masters []redisconn.Endpoint, c NodeConfig) ([]N, error)
	CloseAll func([]N) error
}

func (d Dialer[N]) one(t *testing.T, addr redisconn.Endpoint, c NodeConfig) N {
	t.Helper()
	nodes, err := d.Dial([]redisconn.Endpoint{addr}, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.CloseAll(nodes) })
	return nodes[0]
}

// locker builds a Redlock Locker over every address with strategy mux.
func (d Dialer[N]) locker(tb testing.TB, addrs []redisconn.Endpoint, mux string, c NodeConfig, cfg redlock.Config) drivers.Locker {
	tb.Helper()
	nodes, err := d.Dial(addrs, c)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := multiplex.New(mux, multiplex.AsNodes(nodes), multiplex.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	l, err := redlock.New(s, cfg, func() error { return d.CloseAll(nodes) })
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// Muxes are the strategies every adapter serves.
var Muxes = []string{"sequential", "fanout", "pipeline", "auto"}

// RunNode is the adapter-level suite every Redis client adapter passes on
// real masters (servers, at least one): the command semantics one at a time
// and batched, the EVALSHA → EVAL fallback, connections kept in step after a
// deadline or a frozen master, and the locker conformance suite per mux.
func RunNode[N multiplex.BatchNode](t *testing.T, servers Masters, d Dialer[N]) {
	testenv.Servers(t)
	t.Run("Commands", func(t *testing.T) { nodeCommands(t, servers, d) })
	t.Run("BatchNoScript", func(t *testing.T) { batchNoScript(t, servers, d) })
	t.Run("BatchDeadlineKeepsConnectionInStep", func(t *testing.T) { batchDeadline(t, servers, d) })
	t.Run("StalledMasterKeepsConnectionInStep", func(t *testing.T) { stalledMaster(t, servers, d) })
	t.Run("Conformance", func(t *testing.T) {
		for _, mux := range Muxes {
			t.Run(mux, func(t *testing.T) {
				t.Parallel()
				Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
					cfg := redlock.DefaultConfig()
					cfg.TTL, cfg.NodeTimeout = ttl, slow.NodeTimeout(200*time.Millisecond, ttl)
					return d.locker(t, servers.Endpoints(), mux, NodeConfig{PoolSize: 64, Auto: mux == "auto", NodeTimeout: cfg.NodeTimeout}, cfg)
				}, Options{})
			})
		}
	})
}

// admin is a plain go-redis client to a master for test set-up (SET,
// SCRIPT FLUSH), independent of the adapter under test.
func admin(t *testing.T, addr redisconn.Endpoint) *redis.Client {
	o := addr.GoRedis()
	o.DisableIdentity = true
	c := redis.NewClient(o)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func uniqueKey(prefix string) string {
	return fmt.Sprint("nodetest:", prefix, ":", time.Now().UnixNano())
}

// script is a lock's life on one master; each step's expected status.
var script = []struct {
	cmd  multiplex.Cmd
	want multiplex.Status
}{
	{multiplex.Cmd{Kind: multiplex.Acquire, Token: "a", TTL: 10 * time.Second}, multiplex.OK},
	{multiplex.Cmd{Kind: multiplex.Acquire, Token: "b", TTL: 10 * time.Second}, multiplex.Refused},
	{multiplex.Cmd{Kind: multiplex.Release, Token: "b"}, multiplex.Refused},
	{multiplex.Cmd{Kind: multiplex.Extend, Token: "b", TTL: time.Second}, multiplex.Refused},
	{multiplex.Cmd{Kind: multiplex.Extend, Token: "a", TTL: 20 * time.Second}, multiplex.OK},
	{multiplex.Cmd{Kind: multiplex.Release, Token: "a"}, multiplex.OK},
	{multiplex.Cmd{Kind: multiplex.Release, Token: "a"}, multiplex.Refused},
	{multiplex.Cmd{Kind: multiplex.Acquire, Token: "b", TTL: 10 * time.Second}, multiplex.OK},
}

// run sends cmds one at a time, or as one batch.
func run(ctx context.Context, n multiplex.BatchNode, batch bool, cmds []multiplex.Cmd) []multiplex.Reply {
	out := make([]multiplex.Reply, len(cmds))
	if batch {
		n.DoBatch(ctx, cmds, out)
		return out
	}
	for i, c := range cmds {
		out[i] = n.Do(ctx, c)
	}
	return out
}

// nodeCommands runs the script one command at a time (plain and
// auto-pipelined, after SCRIPT FLUSH so the EVALSHA → EVAL fallback runs)
// and then as one batch, whose replies must follow the script in order.
func nodeCommands[N multiplex.BatchNode](t *testing.T, servers Masters, d Dialer[N]) {
	ctx := context.Background()
	addr := servers.Endpoints()[0]
	for _, mode := range []struct {
		name  string
		cfg   NodeConfig
		batch bool
	}{
		{"do", NodeConfig{PoolSize: 2}, false},
		{"auto", NodeConfig{PoolSize: 2, Auto: true, NodeTimeout: time.Second}, false},
		{"batch", NodeConfig{PoolSize: 2}, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			n := d.one(t, addr, mode.cfg)
			if !mode.batch {
				if err := admin(t, addr).ScriptFlush(ctx).Err(); err != nil {
					t.Fatal(err)
				}
			}
			key := uniqueKey(mode.name)
			cmds := make([]multiplex.Cmd, len(script))
			for i, s := range script {
				cmds[i] = s.cmd
				cmds[i].Key = key
			}
			out := run(ctx, n, mode.batch, cmds)
			for i, s := range script {
				if out[i].Status != s.want {
					t.Errorf("step %d %v token %s: %v (%v), want %v", i, s.cmd.Kind, s.cmd.Token, out[i].Status, out[i].Err, s.want)
				}
			}
		})
	}
}

// batchNoScript: scripts in a batch sent to a master that lost its script
// cache come back NOSCRIPT and are re-sent as EVAL. (Commands of one batch
// come from concurrent lockers, so the retry running after its batchmates is
// still a valid order.)
func batchNoScript[N multiplex.BatchNode](t *testing.T, servers Masters, d Dialer[N]) {
	ctx := context.Background()
	addr := servers.Endpoints()[0]
	n := d.one(t, addr, NodeConfig{PoolSize: 1})
	key := uniqueKey("noscript")
	a := admin(t, addr)
	for i := range 3 {
		if err := a.Set(ctx, fmt.Sprint(key, i), "tok", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	cmds := []multiplex.Cmd{
		{Kind: multiplex.Release, Key: key + "0", Token: "tok"},
		{Kind: multiplex.Acquire, Key: key + "x", Token: "tok", TTL: time.Minute},
		{Kind: multiplex.Release, Key: key + "1", Token: "other"},
		{Kind: multiplex.Extend, Key: key + "2", Token: "tok", TTL: time.Minute},
	}
	want := []multiplex.Status{multiplex.OK, multiplex.OK, multiplex.Refused, multiplex.OK}
	out := run(ctx, n, true, cmds)
	for i := range cmds {
		if out[i].Status != want[i] {
			t.Errorf("cmd %d %v: %v (%v), want %v", i, cmds[i].Kind, out[i].Status, out[i].Err, want[i])
		}
	}
}

// batchDeadline: a batch cut short by its deadline answers TimedOut, and the
// next batch's replies still match its commands.
func batchDeadline[N multiplex.BatchNode](t *testing.T, servers Masters, d Dialer[N]) {
	n := d.one(t, servers.Endpoints()[0], NodeConfig{PoolSize: 1})
	key := uniqueKey("deadline")
	cmds := make([]multiplex.Cmd, 200)
	for i := range cmds {
		cmds[i] = multiplex.Cmd{Kind: multiplex.Acquire, Key: fmt.Sprint(key, i), Token: "t", TTL: time.Minute}
	}
	dctx, cancel := context.WithTimeout(context.Background(), time.Microsecond)
	time.Sleep(time.Millisecond)
	out := run(dctx, n, true, cmds)
	cancel()
	for i, r := range out {
		if r.Status != multiplex.TimedOut {
			t.Fatalf("cmd %d under an expired deadline: %v, want timeout", i, r.Status)
		}
	}
	out = run(context.Background(), n, true, cmds[:2])
	if out[0].Status != multiplex.OK || out[1].Status != multiplex.OK {
		t.Fatalf("batch after a cut-short one: %v, want [ok ok]", out)
	}
}
