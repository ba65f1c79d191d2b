// Package goredis adapts github.com/redis/go-redis/v9 to multiplex.Node: one
// Redis master as the Redlock core sees it.
package goredis

import (
	"context"
	"errors"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

var (
	releaseScript = redis.NewScript(redlock.ReleaseScript)
	extendScript  = redis.NewScript(redlock.ExtendScript)
)

// Options configure the client of every master. They serialise into results.
type Options struct {
	// PoolSize is the connection pool per master; the harness sizes it to the
	// worker count so no worker waits for a connection.
	PoolSize int `json:"pool_size"`
}

// Node is one master behind a go-redis client.
type Node struct {
	c    *redis.Client
	addr string
}

var _ multiplex.Node = (*Node)(nil)

// Dial opens a client per address. The clients honour context deadlines
// (ContextTimeoutEnabled), which is how the per-master timeout is applied.
func Dial(addrs []string, opt Options) []*Node {
	nodes := make([]*Node, len(addrs))
	for i, a := range addrs {
		nodes[i] = &Node{addr: a, c: redis.NewClient(clientOptions(a, opt))}
	}
	return nodes
}

func clientOptions(addr string, opt Options) *redis.Options {
	return &redis.Options{
		Addr:                  addr,
		PoolSize:              max(opt.PoolSize, 1),
		ContextTimeoutEnabled: true,
		DisableIdentity:       true, // no CLIENT SETINFO on connect: a benchmark dials often
		MaxRetries:            -1,   // one attempt means one attempt: never resend a SET NX
	}
}

// Client exposes the go-redis client (for tests and peer drivers).
func (n *Node) Client() *redis.Client { return n.c }

func (n *Node) Addr() string { return n.addr }

// Close closes the client.
func (n *Node) Close() error { return n.c.Close() }

// Do runs one Redlock command on this master.
func (n *Node) Do(ctx context.Context, cmd multiplex.Cmd) multiplex.Reply {
	switch cmd.Kind {
	case multiplex.Acquire:
		ok, err := n.c.SetNX(ctx, cmd.Key, cmd.Token, cmd.TTL).Result()
		return boolReply(ok, err)
	case multiplex.Release:
		v, err := releaseScript.Run(ctx, n.c, []string{cmd.Key}, cmd.Token).Int64()
		return boolReply(v == 1, err)
	case multiplex.Extend:
		v, err := extendScript.Run(ctx, n.c, []string{cmd.Key}, cmd.Token, strconv.FormatInt(cmd.TTL.Milliseconds(), 10)).Int64()
		return boolReply(v == 1, err)
	}
	return multiplex.Reply{Status: multiplex.Failed, Err: errors.New("goredis: unknown command kind " + cmd.Kind.String())}
}

// boolReply reduces a yes/no answer: yes is OK, no is Refused.
func boolReply(ok bool, err error) multiplex.Reply {
	if err != nil && !errors.Is(err, redis.Nil) {
		return multiplex.Classify(err)
	}
	if ok {
		return multiplex.Reply{Status: multiplex.OK}
	}
	return multiplex.Reply{Status: multiplex.Refused}
}

// Nodes converts to the multiplex view.
func Nodes(ns []*Node) []multiplex.Node {
	out := make([]multiplex.Node, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

// CloseAll closes every node's client.
func CloseAll(ns []*Node) error {
	var errs []error
	for _, n := range ns {
		errs = append(errs, n.Close())
	}
	return errors.Join(errs...)
}
