package generators

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestJoinWithoutGeneratorZero: a generator that waits in vain for
// generator 0's plan fails the run (ErrNoPlan), and is not told its own
// input was bad (a JoinError, which the CLI ends with the bad-input exit).
func TestJoinWithoutGeneratorZero(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	coord, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	g := DefaultConfig()
	g.Generators, g.Index, g.Prefix, g.JoinTimeout = 2, 1, "noplan", time.Second
	g.Coord = coord.Addrs()
	g.CoordUser, g.CoordPassword = coord.Access.Username, coord.Access.Password
	g.CoordCACert, g.CoordCert, g.CoordKey = coord.Access.CACert, coord.Access.Cert, coord.Access.Key
	start := time.Now()
	m, err := join(ctx, g, map[string]int{"workers": 1})
	if m != nil {
		m.Close()
	}
	var je *JoinError
	if !errors.Is(err, ErrNoPlan) || errors.As(err, &je) {
		t.Fatalf("join: %v (%T): want ErrNoPlan, not a JoinError", err, err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("gave up after %v: want about the 1 s join timeout", took)
	}
}
