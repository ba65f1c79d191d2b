// Package goredis adapts github.com/redis/go-redis/v9 to multiplex.Node: one
// Redis master as the Redlock core sees it.
package goredis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redisconn"
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
	// worker count so no worker waits for a connection. 0: the library
	// default (10 × GOMAXPROCS).
	PoolSize int `json:"pool_size"`
	// Auto sends every command through the client's auto-pipeliner
	// (Client.AutoPipeline, experimental in go-redis v9.23).
	Auto bool `json:"auto"`
	// NodeTimeout bounds the auto-pipeliner's batches through the
	// connection's read and write timeouts: a queued auto-pipelined command
	// runs under the pipeliner's own context, not the caller's deadline.
	NodeTimeout time.Duration `json:"node_timeout,omitempty"`
	// AutoBatch, AutoFlushDelay and AutoConcurrency (auto only) are the
	// auto-pipeliner's MaxBatchSize, MaxFlushDelay and MaxConcurrentBatches;
	// 0 keeps the library default of each (300, 0, 1). More than one
	// concurrent batch gives up ordering (Unordered), harmless here: each
	// command belongs to its own locker.
	AutoBatch       int           `json:"auto_batch,omitempty"`
	AutoFlushDelay  time.Duration `json:"auto_flush_delay,omitempty"`
	AutoConcurrency int           `json:"auto_concurrency,omitempty"`
}

// autoOptions is the auto-pipeliner's configuration from opt.
func autoOptions(opt Options) *redis.AutoPipelineOptions {
	o := redis.DefaultBlockingAutoPipelineOptions()
	if opt.AutoBatch > 0 {
		o.MaxBatchSize = opt.AutoBatch
	}
	o.MaxFlushDelay = opt.AutoFlushDelay
	if opt.AutoConcurrency > 1 {
		o.MaxConcurrentBatches, o.Unordered = opt.AutoConcurrency, true
	}
	return o
}

// commander is the command surface Do needs: a plain client or the
// auto-pipeliner.
type commander interface {
	redis.Scripter
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
}

// Node is one master behind a go-redis client.
type Node struct {
	c    *redis.Client
	do   commander // c, or c's auto-pipeliner
	auto bool      // do is the auto-pipeliner: no reused commands (slot.go)
	addr string
	ttl  multiplex.TTLArg
}

var (
	_ multiplex.Node      = (*Node)(nil)
	_ multiplex.BatchNode = (*Node)(nil)
	_ commander           = (*redis.AutoPipeliner)(nil)
)

// Dial opens a client per master (address, credentials, TLS). The clients
// honour context deadlines (ContextTimeoutEnabled), which is how the
// per-master timeout is applied.
func Dial(masters []redisconn.Endpoint, opt Options) ([]*Node, error) {
	nodes := make([]*Node, 0, len(masters))
	for _, a := range masters {
		n := &Node{addr: a.String(), c: redis.NewClient(clientOptions(a, opt))}
		n.do = n.c
		if opt.Auto {
			ap, err := n.c.AutoPipelineWithOptions(autoOptions(opt))
			if err != nil {
				_ = n.c.Close()
				_ = CloseAll(nodes)
				return nil, fmt.Errorf("goredis: auto-pipeline %s: %w", a, err)
			}
			n.do, n.auto = ap, true
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

func clientOptions(e redisconn.Endpoint, opt Options) *redis.Options {
	o := e.GoRedis()
	o.PoolSize = opt.PoolSize // 0: the library's default
	o.ContextTimeoutEnabled = true
	o.DisableIdentity = true // no CLIENT SETINFO on connect: a benchmark dials often
	// One attempt means one attempt: never resend a SET NX. This also
	// stops the auto-pipeliner retrying a whole batch after a network
	// error, which would run a SET NX twice.
	o.MaxRetries = -1
	if opt.Auto && opt.NodeTimeout > 0 {
		o.ReadTimeout, o.WriteTimeout = opt.NodeTimeout, opt.NodeTimeout
	}
	return o
}

// Client exposes the go-redis client (for tests and peer drivers).
func (n *Node) Client() *redis.Client { return n.c }

// Addr is the master as shown: redacted, never with its password.
func (n *Node) Addr() string { return n.addr }

// Close closes the client.
func (n *Node) Close() error { return n.c.Close() }

// Do runs one Redlock command on this master. On the plain client it runs
// from a reused slot (slot.go): no argument boxing, no new Cmd.
func (n *Node) Do(ctx context.Context, cmd multiplex.Cmd) multiplex.Reply {
	if !n.auto {
		s := slots.Get().(*slot)
		defer s.release()
		c := s.prepare(cmd, &n.ttl, false)
		if c == nil {
			return unknownKind(cmd)
		}
		_ = n.c.Process(ctx, c)
		if cmd.Kind != multiplex.Acquire && isNoScript(c.Err()) {
			c = s.prepare(cmd, &n.ttl, true)
			_ = n.c.Process(ctx, c)
		}
		return reduce(c)
	}
	switch cmd.Kind {
	case multiplex.Acquire:
		ok, err := n.do.SetNX(ctx, cmd.Key, cmd.Token, cmd.TTL).Result()
		return boolReply(ok, err)
	case multiplex.Release:
		v, err := releaseScript.Run(ctx, n.do, []string{cmd.Key}, cmd.Token).Int64()
		return boolReply(v == 1, err)
	case multiplex.Extend:
		v, err := extendScript.Run(ctx, n.do, []string{cmd.Key}, cmd.Token, ttlArg(cmd.TTL)).Int64()
		return boolReply(v == 1, err)
	}
	return unknownKind(cmd)
}

func unknownKind(cmd multiplex.Cmd) multiplex.Reply {
	return multiplex.Reply{Status: multiplex.Failed, Err: errors.New("goredis: unknown command kind " + cmd.Kind.String())}
}

func ttlArg(ttl time.Duration) string { return strconv.FormatInt(ttl.Milliseconds(), 10) }

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
func Nodes(ns []*Node) []multiplex.Node { return multiplex.AsNodes(ns) }

// CloseAll closes every node's client.
func CloseAll(ns []*Node) error { return multiplex.CloseAll(ns) }
