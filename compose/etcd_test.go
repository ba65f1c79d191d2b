package compose_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/internal/etcdmember"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// The etcd members are this test binary re-executed: TestMain serves them.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){etcdmember.ServeIfChild, servePausedIfChild}, // servePausedIfChild: a server paused in a process the test kills
		// The parallel tests wait on servers starting, a Sentinel, a TLS
		// handshake to time out: they overlap. (The tests that count this
		// process's children are not parallel: they run before.)
		Waiting: 8,
	})
}

func TestStartEtcd(t *testing.T) { // not parallel: counts this process's etcd children
	testenv.Servers(t)
	for _, members := range []int{1, 3} {
		t.Run(fmt.Sprint(members), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: members})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(e.Addrs()); got != members {
				t.Fatalf("%d addrs, want %d", got, members)
			}
			// Members are this test binary re-executed, as its children.
			if kids := procs.Children(os.Getpid(), etcdmember.Arg); len(kids) != members {
				t.Fatalf("%d member processes under this one, want %d", len(kids), members)
			}
			var pids []int
			for _, m := range e.Members {
				if !procs.Alive(m.Pid()) {
					t.Fatalf("member %s: no live process", m.Name)
				}
				pids = append(pids, m.Pid())
				if err := compose.EtcdPingWith(ctx, m.Addr(), e.Access); err != nil {
					t.Fatalf("member %s: %v", m.Name, err)
				}
				if _, err := os.Stat(filepath.Join(m.Dir, "member", "wal")); err != nil {
					t.Fatalf("member %s: no WAL on disk: %v", m.Name, err)
				}
			}
			dir := filepath.Dir(e.Members[0].Dir)
			// Close throws the cluster away: it must not wait for the
			// members' graceful leave (leadership handed around among
			// members that are all going; a Ctrl-C in start-up waited 3 s
			// for it). Idle, the bound is 0.5 s; it scales with the load.
			closing := time.Now()
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(closing); took > slow.D(500*time.Millisecond) { // graceful: ≈ 2.2 s for 3 members idle
				t.Errorf("Close took %v: it waited for the members' graceful leave", took)
			}
			for _, pid := range pids {
				if procs.Alive(pid) {
					t.Errorf("pid %d survived Close", pid)
				}
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("data dir %s survived Close: %v", dir, err)
			}
		})
	}
}

func TestStartEtcdRejectsMemberCount(t *testing.T) {
	for _, n := range []int{0, 2, 4, 7} {
		if _, err := compose.StartEtcd(context.Background(), compose.EtcdOptions{Members: n}); err == nil {
			t.Errorf("members %d: no error", n)
		}
	}
}

// TestUpEtcd: Up starts the members only when the backend needs them, and
// Close stops them.
func TestUpEtcd(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	topo, err := compose.Up(ctx, compose.Spec{NoRedis: true, NeedsEtcd: true, Etcd: compose.EtcdOptions{Members: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if topo.Etcd == nil || len(topo.EtcdAddrs) != 1 || len(topo.RedisAddrs) != 0 {
		t.Fatalf("topology %+v: want one local etcd member and no Redis", topo)
	}
	pid := topo.Etcd.Members[0].Pid()
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	if procs.Alive(pid) {
		t.Fatalf("member pid %d survived Close", pid)
	}
	// External members are dialed, not started.
	e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ext, err := compose.Up(ctx, compose.Spec{NoRedis: true, NeedsEtcd: true, EtcdAddrs: e.Addrs(), EtcdAccess: e.Access})
	if err != nil {
		t.Fatal(err)
	}
	if ext.Etcd != nil || len(ext.EtcdAddrs) != 1 {
		t.Fatalf("external topology %+v: want the given member, nothing started", ext)
	}
	_ = ext.Close()
	if _, err := compose.Up(ctx, compose.Spec{NoRedis: true, NeedsEtcd: true, EtcdAddrs: []string{"127.0.0.1:1"}}); err == nil {
		t.Fatal("Up with an unreachable external etcd: no error")
	}
}

// A member that dies during start-up fails StartEtcd with its own output.
func TestStartEtcdReportsMemberOutput(t *testing.T) {
	testenv.Servers(t)
	bin := filepath.Join(t.TempDir(), "fake-lockbench")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'member exploded' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1, Bin: bin})
	if err == nil || !strings.Contains(err.Error(), "member exploded") {
		t.Fatalf("err = %v, want the member's output", err)
	}
}
