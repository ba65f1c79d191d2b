package goredis_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/drivertest"
	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

var (
	masters []string
	servers *compose.Redis
)

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 3})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	masters, servers = r.Addrs(), r
	code := m.Run()
	_ = r.Close()
	os.Exit(code)
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

func dial(t *testing.T, opt goredis.Options) *goredis.Node {
	nodes, err := goredis.Dial(masters[:1], opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = goredis.CloseAll(nodes) })
	return nodes[0]
}

// TestNodeCommands runs the script one command at a time (plain and
// auto-pipelined, after SCRIPT FLUSH so the EVALSHA → EVAL fallback runs)
// and then as one batch, whose replies must follow the script in order.
func TestNodeCommands(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []struct {
		name  string
		opt   goredis.Options
		batch bool
	}{
		{"do", goredis.Options{PoolSize: 2}, false},
		{"auto", goredis.Options{PoolSize: 2, Auto: true, NodeTimeout: time.Second}, false},
		{"batch", goredis.Options{PoolSize: 2}, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			n := dial(t, mode.opt)
			if !mode.batch {
				if err := n.Client().ScriptFlush(ctx).Err(); err != nil {
					t.Fatal(err)
				}
			}
			key := "goredis-test:" + mode.name + ":" + fmt.Sprint(time.Now().UnixNano())
			cmds := make([]multiplex.Cmd, len(script))
			for i, s := range script {
				cmds[i] = s.cmd
				cmds[i].Key = key
			}
			out := make([]multiplex.Reply, len(cmds))
			if mode.batch {
				n.DoBatch(ctx, cmds, out)
			} else {
				for i, c := range cmds {
					out[i] = n.Do(ctx, c)
				}
			}
			for i, s := range script {
				if out[i].Status != s.want {
					t.Errorf("step %d %v token %s: %v (%v), want %v", i, s.cmd.Kind, s.cmd.Token, out[i].Status, out[i].Err, s.want)
				}
			}
		})
	}
}

// TestBatchNoScript: scripts in a batch sent to a master that lost its
// script cache come back NOSCRIPT and are re-sent as EVAL. (Commands of one
// batch come from concurrent lockers, so the retry running after its
// batchmates is still a valid order.)
func TestBatchNoScript(t *testing.T) {
	ctx := context.Background()
	n := dial(t, goredis.Options{PoolSize: 1})
	key := fmt.Sprint("goredis-test:noscript:", time.Now().UnixNano())
	for i := range 3 {
		if err := n.Client().Set(ctx, fmt.Sprint(key, i), "tok", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Client().ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	cmds := []multiplex.Cmd{
		{Kind: multiplex.Release, Key: key + "0", Token: "tok"},
		{Kind: multiplex.Acquire, Key: key + "x", Token: "tok", TTL: time.Minute},
		{Kind: multiplex.Release, Key: key + "1", Token: "other"},
		{Kind: multiplex.Extend, Key: key + "2", Token: "tok", TTL: time.Minute},
	}
	want := []multiplex.Status{multiplex.OK, multiplex.OK, multiplex.Refused, multiplex.OK}
	out := make([]multiplex.Reply, len(cmds))
	n.DoBatch(ctx, cmds, out)
	for i := range cmds {
		if out[i].Status != want[i] {
			t.Errorf("cmd %d %v: %v (%v), want %v", i, cmds[i].Kind, out[i].Status, out[i].Err, want[i])
		}
	}
}

// TestBatchDeadlineKeepsConnectionInStep: a batch cut short by its deadline
// answers TimedOut, and the next batch's replies still match its commands.
func TestBatchDeadlineKeepsConnectionInStep(t *testing.T) {
	n := dial(t, goredis.Options{PoolSize: 1})
	key := fmt.Sprint("goredis-test:deadline:", time.Now().UnixNano())
	cmds := make([]multiplex.Cmd, 200)
	for i := range cmds {
		cmds[i] = multiplex.Cmd{Kind: multiplex.Acquire, Key: fmt.Sprint(key, i), Token: "t", TTL: time.Minute}
	}
	out := make([]multiplex.Reply, len(cmds))
	dctx, cancel := context.WithTimeout(context.Background(), time.Microsecond)
	time.Sleep(time.Millisecond)
	n.DoBatch(dctx, cmds, out)
	cancel()
	for i, r := range out {
		if r.Status != multiplex.TimedOut {
			t.Fatalf("cmd %d under an expired deadline: %v, want timeout", i, r.Status)
		}
	}
	n.DoBatch(context.Background(), cmds[:2], out[:2])
	if out[0].Status != multiplex.OK || out[1].Status != multiplex.OK {
		t.Fatalf("batch after a cut-short one: %v, want [ok ok]", out[:2])
	}
}

// TestConformance runs the drivers/drivertest suite over 3 real masters for
// every strategy, in the client mode the backends registry dials for it.
func TestConformance(t *testing.T) {
	for _, mux := range []string{"sequential", "fanout", "pipeline", "auto"} {
		t.Run(mux, func(t *testing.T) {
			t.Parallel()
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				opt := goredis.Options{PoolSize: 64}
				if mux == "auto" {
					opt.Auto, opt.NodeTimeout = true, 200*time.Millisecond
				}
				nodes, err := goredis.Dial(masters, opt)
				if err != nil {
					t.Fatal(err)
				}
				s, err := multiplex.New(mux, goredis.Nodes(nodes), multiplex.Options{})
				if err != nil {
					t.Fatal(err)
				}
				cfg := redlock.DefaultConfig()
				cfg.TTL, cfg.NodeTimeout = ttl, 200*time.Millisecond
				l, err := redlock.New(s, cfg, func() error { return goredis.CloseAll(nodes) })
				if err != nil {
					t.Fatal(err)
				}
				return l
			}, drivertest.Options{})
		})
	}
}

// TestStalledMasterKeepsConnectionInStep: a master frozen (SIGSTOP) while
// commands are in flight makes them time out; once it thaws, the late
// replies must not be taken for the next commands' answers.
func TestStalledMasterKeepsConnectionInStep(t *testing.T) {
	for _, mode := range []struct {
		name  string
		opt   goredis.Options
		batch bool
	}{
		{"batch", goredis.Options{PoolSize: 1}, true},
		{"auto", goredis.Options{PoolSize: 4, Auto: true, NodeTimeout: 50 * time.Millisecond}, false},
	} {
		t.Run(mode.name, func(t *testing.T) {
			n := dial(t, mode.opt)
			key := fmt.Sprint("goredis-test:stall:", mode.name, time.Now().UnixNano())
			run := func(ctx context.Context, cmds []multiplex.Cmd) []multiplex.Reply {
				out := make([]multiplex.Reply, len(cmds))
				if mode.batch {
					n.DoBatch(ctx, cmds, out)
				} else {
					for i, c := range cmds {
						out[i] = n.Do(ctx, c)
					}
				}
				return out
			}
			acquire := func(k, tok string) multiplex.Cmd {
				return multiplex.Cmd{Kind: multiplex.Acquire, Key: k, Token: tok, TTL: time.Minute}
			}
			// Warm the connection, then freeze the master mid-command.
			run(context.Background(), []multiplex.Cmd{acquire(key+":warm", "w")})
			srv := servers.Servers[0]
			if err := srv.Pause(); err != nil {
				t.Fatal(err)
			}
			resumed := false
			defer func() {
				if !resumed {
					_ = srv.Resume()
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			stalled := run(ctx, []multiplex.Cmd{acquire(key+":a", "old"), acquire(key+":b", "old")})
			cancel()
			for i, r := range stalled {
				if r.Status != multiplex.TimedOut && r.Status != multiplex.Failed {
					t.Fatalf("cmd %d to a frozen master: %v, want timeout or failed", i, r.Status)
				}
			}
			if err := srv.Resume(); err != nil {
				t.Fatal(err)
			}
			resumed = true
			// A held key (refused) then a fresh one (ok). The stalled commands'
			// late replies are both OK, so a shifted connection would answer
			// the first with OK. (Whether the stalled SETs ran at all, and
			// before or after these, is not asserted: a dropped connection
			// races its buffered commands against the new one.)
			got := run(context.Background(), []multiplex.Cmd{acquire(key+":warm", "new"), acquire(key+":c", "new")})
			if got[0].Status != multiplex.Refused || got[1].Status != multiplex.OK {
				t.Fatalf("after the stall: %v, want [refused ok]", got)
			}
		})
	}
}
