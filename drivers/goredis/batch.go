package goredis

import (
	"context"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/multiplex"
)

// DoBatch runs cmds as one go-redis pipeline: one write, replies read back in
// order on one connection. Scripts go as EVALSHA; the few that come back
// NOSCRIPT (a master that restarted empty) are sent again as EVAL, which
// also loads them; they then run after their batchmates, a valid order since
// the commands of one batch come from concurrent lockers. ctx bounds the whole batch: when it ends mid-read go-redis
// drops the connection instead of reusing it, so replies never shift.
func (n *Node) DoBatch(ctx context.Context, cmds []multiplex.Cmd, out []multiplex.Reply) {
	bp := batches.Get().(*[]*slot)
	defer func() {
		for _, s := range *bp {
			s.release()
		}
		clear(*bp)
		*bp = (*bp)[:0]
		batches.Put(bp)
	}()
	sent := make([]redis.Cmder, len(cmds))
	_, _ = n.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, c := range cmds {
			s := slots.Get().(*slot)
			*bp = append(*bp, s)
			if sent[i] = s.prepare(c, &n.ttl, false); sent[i] == nil {
				sent[i] = p.Do(ctx, "lockbench-unknown-kind", c.Kind.String())
				continue
			}
			_ = p.Process(ctx, sent[i])
		}
		return nil
	})
	var retry []int
	for i, c := range sent {
		out[i] = reduce(c)
		if cmds[i].Kind != multiplex.Acquire && isNoScript(c.Err()) {
			retry = append(retry, i)
		}
	}
	if len(retry) == 0 {
		return
	}
	_, _ = n.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, i := range retry {
			sent[i] = (*bp)[i].prepare(cmds[i], &n.ttl, true)
			_ = p.Process(ctx, sent[i])
		}
		return nil
	})
	for _, i := range retry {
		out[i] = reduce(sent[i])
	}
}

// batches are DoBatch's slot lists, reused.
var batches = sync.Pool{New: func() any { s := make([]*slot, 0, 64); return &s }}

// reduce turns one pipelined reply into a Reply.
func reduce(c redis.Cmder) multiplex.Reply {
	switch c := c.(type) {
	case *redis.BoolCmd:
		return boolReply(c.Val(), c.Err())
	case *redis.Cmd:
		v, err := c.Int64()
		return boolReply(v == 1, err)
	}
	return multiplex.Classify(c.Err())
}

func isNoScript(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")
}
