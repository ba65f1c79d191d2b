package compose

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestPostgresPauseKillStart: Pause freezes the backends too (a session
// opened before stops answering), Resume thaws them; Kill ends every
// session, Start brings the server back on the same port.
func TestPostgresPauseKillStart(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := StartPostgres(ctx, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := pgx.Connect(ctx, p.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	ping := func(d time.Duration) error {
		pctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return c.Ping(pctx)
	}
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := ping(300 * time.Millisecond); err == nil {
		t.Error("an open session answered while the server was paused")
	}
	if err := p.Resume(); err != nil {
		t.Fatal(err)
	}
	// The timed-out ping broke c: a new session after the resume.
	if c, err = pgx.Connect(ctx, p.URL()); err != nil {
		t.Fatalf("after resume: %v", err)
	}
	pid := p.Pid()
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if len(procs.Children(pid, "")) != 0 {
		t.Errorf("backends of the killed postmaster still alive: %v", procs.Children(pid, ""))
	}
	if err := ping(time.Second); err == nil {
		t.Error("a session survived the kill")
	}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if p.Pid() == pid || postgresPing(ctx, p.URL()) != nil {
		t.Errorf("not restarted: pid %d (was %d)", p.Pid(), pid)
	}
}

// TestZooKeeperPauseKillStart: the same for ZooKeeper (one JVM).
func TestZooKeeperPauseKillStart(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	z, err := StartZooKeeper(ctx, ZooKeeperOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	ping := func() error { // an authenticated session over TLS: a JVM's first handshakes are slow
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return z.Ping(pctx)
	}
	if err := z.Pause(); err != nil {
		t.Fatal(err)
	}
	if ping() == nil {
		t.Error("answered while paused")
	}
	if err := z.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := ping(); err != nil {
		t.Errorf("after resume: %v", err)
	}
	pid := z.Pid()
	if err := z.Kill(); err != nil {
		t.Fatal(err)
	}
	if ping() == nil {
		t.Error("answered after the kill")
	}
	if err := z.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if z.Pid() == pid || ping() != nil {
		t.Errorf("not restarted: pid %d (was %d)", z.Pid(), pid)
	}
}

func TestPostgresURLVia(t *testing.T) {
	for _, c := range []struct{ in, addr, want, err string }{
		{"postgres://u:pw@db:5433/x?sslmode=disable", "127.0.0.1:9", "postgres://u:pw@127.0.0.1:9/x?sslmode=disable", ""},
		{"postgresql://u@db/x", "127.0.0.1:9", "postgresql://u@127.0.0.1:9/x", ""},
		{"host=db user=u", "127.0.0.1:9", "", "want postgres://"},
		{"postgres://u:secret@a:1,b:2/x", "127.0.0.1:9", "", "one host"},
	} {
		got, err := PostgresURLVia(c.in, c.addr)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "secret") {
				t.Errorf("%q: err %v, want %q (password redacted)", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
