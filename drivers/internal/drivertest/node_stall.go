package drivertest

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/multiplex"
)

// stalledMaster: a master frozen (SIGSTOP) while commands are in flight
// makes them time out; once it thaws, the late replies must not be taken for
// the next commands' answers.
func stalledMaster[N multiplex.BatchNode](t *testing.T, servers Masters, d Dialer[N]) {
	for _, mode := range []struct {
		name  string
		cfg   NodeConfig
		batch bool
	}{
		{"batch", NodeConfig{PoolSize: 1}, true},
		{"auto", NodeConfig{PoolSize: 4, Auto: true, NodeTimeout: 50 * time.Millisecond}, false},
	} {
		t.Run(mode.name, func(t *testing.T) {
			n := d.one(t, servers.Endpoints()[0], mode.cfg)
			key := uniqueKey("stall:" + mode.name)
			acquire := func(k, tok string) multiplex.Cmd {
				return multiplex.Cmd{Kind: multiplex.Acquire, Key: k, Token: tok, TTL: time.Minute}
			}
			// Warm the connection, then freeze the master mid-command.
			run(context.Background(), n, mode.batch, []multiplex.Cmd{acquire(key+":warm", "w")})
			if err := servers.Pause(0); err != nil {
				t.Fatal(err)
			}
			resumed := false
			defer func() {
				if !resumed {
					_ = servers.Resume(0)
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			stalled := run(ctx, n, mode.batch, []multiplex.Cmd{acquire(key+":a", "old"), acquire(key+":b", "old")})
			cancel()
			for i, r := range stalled {
				if r.Status != multiplex.TimedOut && r.Status != multiplex.Failed {
					t.Fatalf("cmd %d to a frozen master: %v, want timeout or failed", i, r.Status)
				}
			}
			if err := servers.Resume(0); err != nil {
				t.Fatal(err)
			}
			resumed = true
			// A held key (refused) then a fresh one (ok). The stalled commands'
			// late replies are both OK, so a shifted connection would answer
			// the first with OK. (Whether the stalled SETs ran at all, and
			// before or after these, is not asserted: a dropped connection
			// races its buffered commands against the new one.)
			got := run(context.Background(), n, mode.batch, []multiplex.Cmd{acquire(key+":warm", "new"), acquire(key+":c", "new")})
			if got[0].Status != multiplex.Refused || got[1].Status != multiplex.OK {
				t.Fatalf("after the stall: %v, want [refused ok]", got)
			}
		})
	}
}
