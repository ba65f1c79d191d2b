package pglock

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/internal/testenv"
)

var url string

func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{Setup: testenv.Start(
		func(ctx context.Context) (*compose.Postgres, error) {
			return compose.StartPostgres(ctx, compose.PostgresOptions{})
		},
		func(p *compose.Postgres) { url = p.URL() })})
}

// TestConformance: every mode × try/wait, 16 contending workers.
func TestConformance(t *testing.T) {
	testenv.Servers(t)
	for _, mode := range modes {
		for _, wait := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/wait=%t", mode, wait), func(t *testing.T) {
				drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
					cfg := DefaultConfig()
					cfg.Mode, cfg.Wait, cfg.WaitTimeout, cfg.TTL = mode, wait, 200*time.Millisecond, ttl
					l, err := New(context.Background(), url, cfg, 17)
					if err != nil {
						t.Fatal(err)
					}
					return l
				}, drivertest.Options{Workers: 16, NoExpiry: true})
			})
		}
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  func(*Config)
		flag string
	}{
		{"default", func(c *Config) {}, ""},
		{"xact", func(c *Config) { c.Mode = ModeXact }, ""},
		{"bad mode", func(c *Config) { c.Mode = "table" }, "mode"},
		{"zero wait", func(c *Config) { c.WaitTimeout = 0 }, "wait_timeout"},
		{"zero ttl", func(c *Config) { c.TTL = 0 }, "ttl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.cfg(&c)
			err := c.Validate()
			if (tc.flag == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.flag)) {
				t.Fatalf("err = %v, want one naming %q", err, tc.flag)
			}
		})
	}
}

// TestFailedUnlockEndsSession: an Unlock that could not run (its own context
// already ended) must not hand the pool a connection still holding the
// lock: the session is closed, and another client gets the key.
func TestFailedUnlockEndsSession(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open := func() *locker {
		l, err := New(ctx, url, DefaultConfig(), 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
		return l
	}
	l1, l2 := open(), open()
	a, _, err := l1.Lock(ctx, "failed-unlock")
	if err != nil {
		t.Fatal(err)
	}
	dead, stop := context.WithCancel(ctx)
	stop()
	if err := a.Unlock(dead); err == nil {
		t.Fatal("Unlock with a canceled context succeeded")
	}
	for {
		b, _, err := l2.Lock(ctx, "failed-unlock")
		if err == nil {
			_ = b.Unlock(ctx)
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the lock outlived its failed Unlock: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
