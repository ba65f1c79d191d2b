// Package rueidis adapts github.com/redis/rueidis to multiplex.Node: one
// Redis master as the Redlock core sees it.
//
// rueidis auto-pipelines by default: concurrent commands to one master share
// a connection and are written together. For the sequential, fanout and
// pipeline strategies that would batch behind the strategy's back, so those
// cells dial with DisableAutoPipelining (every command on its own pooled
// connection, DoMulti as one explicit pipeline); only the auto cell keeps the
// default mode.
package rueidis

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math/bits"
	"sync"
	"time"

	rdb "github.com/redis/rueidis"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

// script is a Lua script and its SHA-1, sent as EVALSHA with an EVAL fallback.
type script struct{ src, sha string }

func newScript(src string) script {
	h := sha1.Sum([]byte(src))
	return script{src: src, sha: hex.EncodeToString(h[:])}
}

var (
	releaseScript = newScript(redlock.ReleaseScript)
	extendScript  = newScript(redlock.ExtendScript)
)

// Options configure the client of every master. They serialise into results.
type Options struct {
	// Auto keeps rueidis's default auto-pipelining; otherwise it is disabled.
	Auto bool `json:"auto"`
	// PoolSize is the per-master connection pool used when auto-pipelining
	// is disabled (rueidis's BlockingPoolSize); sized to the worker count.
	PoolSize int `json:"pool_size"`
	// MaxFlushDelay (auto only) lets the pipe's writer wait up to this long
	// for more commands before a write. 0, the library default, writes as
	// soon as the queue is empty: under lock cycles that is one write per
	// command (measured: 10.1 writes per 10-command cycle at 64 workers).
	MaxFlushDelay time.Duration `json:"max_flush_delay"`
	// Pipes (auto only) is the number of pipelining connections per master:
	// a power of two up to 256, 0 for the library default (4 with
	// GOMAXPROCS ≥ 4, 2 on two cores). More pipes split the same commands
	// into smaller batches.
	Pipes int `json:"pipes"`
}

// CheckPipes validates a pipes count (0: library default).
func CheckPipes(p int) error {
	if p < 0 || p > 1<<rdb.MaxPipelineMultiplex || p&(p-1) != 0 {
		return fmt.Errorf("want 0 (library default) or a power of two up to %d", 1<<rdb.MaxPipelineMultiplex)
	}
	return nil
}

// pipelineMultiplex maps pipes to rueidis's PipelineMultiplex (log2 of the
// pipes; 0 there means the default, a negative value one pipe).
func pipelineMultiplex(pipes int) int {
	switch {
	case pipes == 0:
		return 0
	case pipes == 1:
		return -1
	}
	return bits.TrailingZeros(uint(pipes))
}

// Node is one master behind a rueidis client.
type Node struct {
	c    rdb.Client
	addr string
	ttl  multiplex.TTLArg
	// batches are scratch command slices for DoBatch, reused.
	batches sync.Pool
}

var (
	_ multiplex.Node      = (*Node)(nil)
	_ multiplex.BatchNode = (*Node)(nil)
)

// Dial opens a client per master (address, credentials, TLS). Deadlines
// come from the context.
func Dial(masters []redisconn.Endpoint, opt Options) ([]*Node, error) {
	nodes := make([]*Node, 0, len(masters))
	for _, a := range masters {
		c, err := rdb.NewClient(clientOptions(a, opt))
		if err != nil {
			_ = CloseAll(nodes)
			return nil, fmt.Errorf("rueidis: dial %s: %w", a, err)
		}
		nodes = append(nodes, &Node{c: c, addr: a.String()})
	}
	return nodes, nil
}

// pooledBuffer sizes each pooled connection's read and write buffers when
// auto-pipelining is off. rueidis's 0.5 MiB defaults suit its few shared
// pipelining connections; over a pool of one connection per worker they cost
// a megabyte of zeroing per dial, and under timeouts (a timed-out
// connection is closed and re-dialed) that zeroing starved the process:
// fanout fell to ~150 cycles/s at 256 workers before this.
const pooledBuffer = 16 << 10

func clientOptions(e redisconn.Endpoint, opt Options) rdb.ClientOption {
	o := e.Rueidis()
	o.ForceSingleClient = true // independent masters, never a cluster
	o.DisableCache = true      // no client-side caching: locks are writes
	o.DisableRetry = true      // one attempt means one attempt
	o.DisableAutoPipelining = !opt.Auto
	o.BlockingPoolSize = max(opt.PoolSize, 1)
	if opt.Auto {
		o.MaxFlushDelay = opt.MaxFlushDelay
		o.PipelineMultiplex = pipelineMultiplex(opt.Pipes)
	}
	if !opt.Auto {
		o.ReadBufferEachConn, o.WriteBufferEachConn = pooledBuffer, pooledBuffer
	}
	return o
}

// Client exposes the rueidis client (for tests and peer drivers).
func (n *Node) Client() rdb.Client { return n.c }

func (n *Node) Addr() string { return n.addr }

// Close closes the client.
func (n *Node) Close() error { n.c.Close(); return nil }

// Do runs one Redlock command on this master.
func (n *Node) Do(ctx context.Context, cmd multiplex.Cmd) multiplex.Reply {
	r := n.c.Do(ctx, n.build(cmd, false))
	if cmd.Kind != multiplex.Acquire && isNoScript(r.Error()) {
		r = n.c.Do(ctx, n.build(cmd, true))
	}
	return reduce(cmd.Kind, r)
}

// DoBatch runs cmds as one pipeline (DoMulti): one write, replies in order.
// Scripts that come back NOSCRIPT (a master restarted empty) are sent again
// as EVAL (after their batchmates: a valid order, since the commands of one
// batch come from concurrent lockers). rueidis matches replies to commands itself, so a ctx that ends
// mid-batch fails the waiting commands without shifting the connection.
func (n *Node) DoBatch(ctx context.Context, cmds []multiplex.Cmd, out []multiplex.Reply) {
	bp, _ := n.batches.Get().(*rdb.Commands)
	if bp == nil {
		bp = new(rdb.Commands)
	}
	defer func() { clear(*bp); n.batches.Put(bp) }()
	built := (*bp)[:0]
	for _, c := range cmds {
		built = append(built, n.build(c, false))
	}
	*bp = built
	var retry []int
	for i, r := range n.c.DoMulti(ctx, built...) {
		if cmds[i].Kind != multiplex.Acquire && isNoScript(r.Error()) {
			retry = append(retry, i)
			continue
		}
		out[i] = reduce(cmds[i].Kind, r)
	}
	if len(retry) == 0 {
		return
	}
	built = built[:0]
	for _, i := range retry {
		built = append(built, n.build(cmds[i], true))
	}
	for j, r := range n.c.DoMulti(ctx, built...) {
		out[retry[j]] = reduce(cmds[retry[j]].Kind, r)
	}
}

// build makes the command; full sends a script's source (EVAL) instead of
// its SHA. Every command is built as Arbitrary with the key among the Args:
// the typed builders' Key computes the key's cluster slot (CRC16), which a
// single client never uses (4 % of the pipeline cell's CPU).
func (n *Node) build(c multiplex.Cmd, full bool) rdb.Completed {
	b := n.c.B()
	var s script
	switch c.Kind {
	case multiplex.Acquire:
		return b.Arbitrary("SET").Args(c.Key, c.Token, "NX", "PX", n.ttl.Millis(c.TTL)).Build()
	case multiplex.Release:
		s = releaseScript
	case multiplex.Extend:
		s = extendScript
	default:
		return b.Arbitrary("LOCKBENCH-UNKNOWN-KIND").Build()
	}
	verb, body := "EVALSHA", s.sha
	if full {
		verb, body = "EVAL", s.src
	}
	if c.Kind == multiplex.Extend {
		return b.Arbitrary(verb).Args(body, "1", c.Key, c.Token, n.ttl.Millis(c.TTL)).Build()
	}
	return b.Arbitrary(verb).Args(body, "1", c.Key, c.Token).Build()
}

// reduce turns a rueidis result into a Reply: SET NX answers OK or nil,
// the scripts 1 (ours) or 0 (not ours).
func reduce(kind multiplex.Kind, r rdb.RedisResult) multiplex.Reply {
	err := r.Error()
	switch {
	case rdb.IsRedisNil(err):
		return multiplex.Reply{Status: multiplex.Refused}
	case err != nil:
		return multiplex.Classify(err)
	case kind == multiplex.Acquire:
		return multiplex.Reply{Status: multiplex.OK}
	}
	v, err := r.AsInt64()
	if err != nil {
		return multiplex.Classify(err)
	}
	if v == 1 {
		return multiplex.Reply{Status: multiplex.OK}
	}
	return multiplex.Reply{Status: multiplex.Refused}
}

func isNoScript(err error) bool {
	e, ok := rdb.IsRedisErr(err)
	return ok && e.IsNoScript()
}

// Nodes converts to the multiplex view.
func Nodes(ns []*Node) []multiplex.Node { return multiplex.AsNodes(ns) }

// CloseAll closes every node's client.
func CloseAll(ns []*Node) error { return multiplex.CloseAll(ns) }
