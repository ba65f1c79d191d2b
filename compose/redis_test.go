package compose

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
)

func TestStartRedisAnswersAndStops(t *testing.T) {
	testenv.Servers(t)
	for _, p := range persistences {
		t.Run(p, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, err := StartRedis(ctx, RedisOptions{Masters: 3, Persistence: p})
			if err != nil {
				t.Fatal(err)
			}
			pids := []int{}
			for _, s := range r.Servers {
				if err := Ping(ctx, s.Endpoint()); err != nil {
					t.Fatalf("master %s: %v", s.Addr(), err)
				}
				pids = append(pids, s.Pid())
			}
			if len(r.Addrs()) != 3 || r.Addrs()[0] == r.Addrs()[1] {
				t.Fatalf("addrs %v: want 3 distinct", r.Addrs())
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			for _, pid := range pids {
				if procs.Alive(pid) {
					t.Fatalf("redis-server pid %d still alive after Close", pid)
				}
			}
			if _, err := os.Stat(r.root); !os.IsNotExist(err) {
				t.Fatalf("temp dir %s not removed", r.root)
			}
		})
	}
}

func TestStartRedisErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := StartRedis(ctx, RedisOptions{Masters: 0}); err == nil {
		t.Fatal("0 masters accepted")
	}
	if _, err := StartRedis(ctx, RedisOptions{Masters: 1, Persistence: "sometimes"}); err == nil {
		t.Fatal("bad persistence accepted")
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := StartRedis(ctx, RedisOptions{Masters: 1}); !errors.Is(err, errNoRedisServer) {
		t.Fatalf("no redis-server in PATH: err = %v, want ErrNoRedisServer (naming the package)", err)
	}
}

// A killed master restarts empty on the same port (no persistence); a paused
// one stops answering until resumed.
func TestKillRestartPause(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := StartRedis(ctx, RedisOptions{Masters: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := r.Servers[0]
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	if Ping(pctx, s.Endpoint()) == nil {
		t.Fatal("killed master still answers")
	}
	pcancel()
	if err := s.Start(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if err := s.Pause(); err != nil {
		t.Fatal(err)
	}
	pctx, pcancel = context.WithTimeout(ctx, 200*time.Millisecond)
	if Ping(pctx, s.Endpoint()) == nil {
		t.Fatal("paused master answers")
	}
	pcancel()
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := Ping(ctx, s.Endpoint()); err != nil {
		t.Fatalf("resumed master: %v", err)
	}
}

func TestParseAddrs(t *testing.T) {
	tests := []struct {
		in []string
		ok bool
	}{
		{[]string{"127.0.0.1:6379", "127.0.0.1:6380"}, true},
		{[]string{"localhost:1"}, true},
		{[]string{"127.0.0.1"}, false},
		{[]string{":6379"}, false},
		{[]string{"127.0.0.1:0"}, false},
		{[]string{"127.0.0.1:99999"}, false},
		{[]string{"127.0.0.1:6379", "127.0.0.1:6379"}, false},
	}
	for _, tc := range tests {
		if _, err := parseAddrList("redis_addrs", tc.in); (err == nil) != tc.ok {
			t.Errorf("ParseAddrs(%v) = %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}

// A master under ClockShift expires keys by its shifted clock: a jump past a
// key's TTL expires it at once, and the offset survives a restart.
func TestRedisClockJumpExpiresKeys(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := StartRedis(ctx, RedisOptions{Masters: 2, ClockShift: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	shifted, steady := r.Servers[0], r.Servers[1]
	if shifted.Clock() == nil {
		t.Fatal("ClockShift master has no Clock")
	}
	for _, s := range r.Servers {
		c := redis.NewClient(s.Endpoint().GoRedis())
		defer c.Close()
		if err := c.Set(ctx, "lock", "token", 10*time.Second).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := shifted.Clock().Jump(11 * time.Second); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s       *RedisServer
		exists  int64
		clockAt time.Duration
	}{{shifted, 0, 11 * time.Second}, {steady, 1, 0}} {
		c := redis.NewClient(tc.s.Endpoint().GoRedis())
		defer c.Close()
		if n, err := c.Exists(ctx, "lock").Result(); err != nil || n != tc.exists {
			t.Errorf("master %s: EXISTS = %d, %v; want %d", tc.s.Addr(), n, err, tc.exists)
		}
		now, err := c.Time(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if off := time.Until(now); off < tc.clockAt-2*time.Second || off > tc.clockAt+2*time.Second {
			t.Errorf("master %s: TIME is off by %v, want %v", tc.s.Addr(), off, tc.clockAt)
		}
	}
	if err := shifted.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := shifted.Start(ctx); err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(shifted.Endpoint().GoRedis())
	defer c.Close()
	if now, err := c.Time(ctx).Result(); err != nil || time.Until(now) < 9*time.Second {
		t.Errorf("after restart TIME = %v, %v: want the 11s offset kept", now, err)
	}
}

// TestUpDialsNamedMasters: a spec naming masters by URL (RedisAddrs, not
// resolved beforehand, as a library caller builds it) dials those masters
// and starts no local ones.
func TestUpDialsNamedMasters(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := StartRedis(ctx, RedisOptions{Masters: 2, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spec := Spec{Redis: RedisOptions{Masters: 5}}
	for _, s := range r.Servers {
		spec.RedisAddrs = append(spec.RedisAddrs, s.Endpoint().SecretURL())
	}
	topo, err := Up(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	if topo.Redis != nil || len(topo.Masters) != 2 || topo.Masters[0].Addr != r.Servers[0].Addr() || topo.Masters[1].Addr != r.Servers[1].Addr() {
		t.Fatalf("masters %v (local %v): want the two named, none started", topo.RedisAddrs, topo.Redis != nil)
	}
}
