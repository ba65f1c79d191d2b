package compose

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestUpBackends: Up starts ZooKeeper, PostgreSQL and the Sentinel topology
// when asked, each answers, and Close leaves no server process behind.
func TestUpBackends(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topo, err := Up(ctx, Spec{NoRedis: true, NeedsZooKeeper: true, NeedsPostgres: true, NeedsSentinel: true})
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{topo.ZooKeeper.Pid(), topo.Postgres.Pid(), topo.Sentinel.Pid(), topo.Sentinel.Master.Pid(), topo.Sentinel.Replica.Pid()}
	if err := topo.ZooKeeper.Ping(ctx); err != nil {
		t.Errorf("zookeeper: %v", err)
	}
	if err := postgresPing(ctx, topo.PostgresURL); err != nil {
		t.Errorf("postgres: %v", err)
	}
	if m, err := topo.Sentinel.CurrentMaster(ctx); err != nil || m != topo.Sentinel.Master.Addr() {
		t.Errorf("sentinel master = %q (%v), want %s", m, err, topo.Sentinel.Master.Addr())
	}
	if os.Geteuid() == 0 {
		st, err := os.Stat("/proc/" + itoa(topo.Postgres.Pid()))
		if err == nil && st.Sys() != nil && ownerUID(st) == 0 {
			t.Errorf("postgres runs as root")
		}
	}
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if procs.Alive(pid) {
			t.Errorf("pid %d still alive after Close", pid)
		}
	}
}

// TestSentinelBlockReplication: a write made while replication is blocked
// does not reach the replica; once healed, the next one does.
func TestSentinelBlockReplication(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, s := startSentinel(t)
	m := redis.NewClient(&redis.Options{Addr: s.Master.Addr(), Password: s.Password})
	defer m.Close()
	if err := s.BlockReplication(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(ctx, "blocked", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := m.Do(ctx, "WAIT", 1, 300).Int(); err != nil || n != 0 {
		t.Fatalf("WAIT 1 while blocked = %d (%v), want 0 replicas", n, err)
	}
	r := redis.NewClient(&redis.Options{Addr: s.Replica.Addr(), Password: s.Password})
	defer r.Close()
	if n, _ := r.Exists(ctx, "blocked").Result(); n != 0 {
		t.Fatal("the write reached the replica through a blocked link")
	}
}

// TestSentinelFailoverTimeout: the Sentinel runs with the failover-timeout
// asked for, as it reports it itself.
func TestSentinelFailoverTimeout(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	opt := DefaultSentinelOptions()
	opt.FailoverTimeout = 90 * time.Second
	ctx, s := startSentinelWith(t, opt)
	c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr(), Password: s.Password})
	defer c.Close()
	m, err := c.Master(ctx, SentinelMaster).Result()
	if err != nil {
		t.Fatal(err)
	}
	if got := m["failover-timeout"]; got != "90000" {
		t.Errorf("failover-timeout = %q, want 90000", got)
	}
}

// TestSentinelFailoverOnRequest: a Sentinel that would never take the
// master for down on its own (a down-after of an hour) promotes the
// replica when asked to.
func TestSentinelFailoverOnRequest(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	opt := DefaultSentinelOptions()
	opt.DownAfter, opt.FailoverTimeout = time.Hour, time.Hour
	ctx, s := startSentinelWith(t, opt)
	if m, err := s.CurrentMaster(ctx); err != nil || m != s.Master.Addr() {
		t.Fatalf("master before the request = %q (%v), want %s", m, err, s.Master.Addr())
	}
	// A Sentinel that has just started may not yet count its replica as
	// one it may promote (NOGOODSLAVE, until its INFO and pings of the
	// replica are fresh, later on a loaded machine): ask until it agrees.
	var err error
	for err = s.Failover(ctx); err != nil && strings.Contains(err.Error(), "NOGOODSLAVE") && ctx.Err() == nil; err = s.Failover(ctx) {
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	for {
		m, err := s.CurrentMaster(ctx)
		if err == nil && m == s.Replica.Addr() {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("master after the request = %q (%v), want the replica %s", m, err, s.Replica.Addr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSentinelAuth: master, replica and Sentinel refuse a client without
// the topology's password (NOAUTH) and serve one with it; the replica
// replicates with it (masterauth).
func TestSentinelAuth(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, s := startSentinel(t)
	if len(s.Password) < 32 {
		t.Fatalf("password %q: want a generated one", s.Password)
	}
	for _, c := range []struct {
		name string
		addr string
		cmd  []any
	}{
		{"master", s.Master.Addr(), []any{"SET", "k", "v"}},
		{"replica", s.Replica.Addr(), []any{"GET", "k"}},
		{"sentinel", s.Addr(), []any{"SENTINEL", "get-master-addr-by-name", SentinelMaster}},
	} {
		for _, pw := range []string{"", "wrong", s.Password} {
			cl := redis.NewClient(&redis.Options{Addr: c.addr, Password: pw, MaxRetries: -1, DisableIdentity: true})
			err := cl.Do(ctx, c.cmd...).Err()
			cl.Close()
			if errors.Is(err, redis.Nil) {
				err = nil
			}
			if refused := err != nil; refused != (pw != s.Password) {
				t.Errorf("%s with password %q: %v", c.name, pw, err)
			}
		}
	}
	m := redis.NewClient(&redis.Options{Addr: s.Master.Addr(), Password: s.Password})
	defer m.Close()
	if n, err := m.Do(ctx, "WAIT", 1, 2000).Int(); err != nil || n != 1 {
		t.Errorf("WAIT 1 = %d (%v): the replica is not replicating with the password", n, err)
	}
}

// TestZooKeeperMissing: without the server, a clear error naming the package, not
// a skip.
func TestZooKeeperMissing(t *testing.T) {
	saved := zooKeeperJar
	zooKeeperJar = "/nonexistent/zookeeper.jar"
	defer func() { zooKeeperJar = saved }()
	_, err := StartZooKeeper(context.Background(), ZooKeeperOptions{})
	if !errors.Is(err, errNoZooKeeper) || !strings.Contains(err.Error(), "apt-get install zookeeper") {
		t.Fatalf("err = %v, want ErrNoZooKeeper naming the package", err)
	}
}

// startSentinel starts the default Sentinel topology for one test, closed
// when it ends, and a context bounding the test's calls.
func startSentinel(t *testing.T) (context.Context, *Sentinel) {
	t.Helper()
	return startSentinelWith(t, DefaultSentinelOptions())
}

func startSentinelWith(t *testing.T, opt SentinelOptions) (context.Context, *Sentinel) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	s, err := StartSentinel(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return ctx, s
}
