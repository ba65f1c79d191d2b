package goredis

import (
	"context"
	"strings"

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
	sent := make([]redis.Cmder, len(cmds))
	_, _ = n.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, c := range cmds {
			sent[i] = queue(ctx, p, c, false)
		}
		return nil
	})
	var retry []int
	for i, c := range sent {
		out[i] = reduce(c)
		if isNoScript(c.Err()) {
			retry = append(retry, i)
		}
	}
	if len(retry) == 0 {
		return
	}
	_, _ = n.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, i := range retry {
			sent[i] = queue(ctx, p, cmds[i], true)
		}
		return nil
	})
	for _, i := range retry {
		out[i] = reduce(sent[i])
	}
}

// queue adds one Redlock command to a pipeline, scripts by SHA unless full.
func queue(ctx context.Context, p redis.Pipeliner, c multiplex.Cmd, full bool) redis.Cmder {
	var s *redis.Script
	args := []any{c.Token}
	switch c.Kind {
	case multiplex.Acquire:
		return p.SetNX(ctx, c.Key, c.Token, c.TTL)
	case multiplex.Release:
		s = releaseScript
	case multiplex.Extend:
		s = extendScript
		args = append(args, ttlArg(c.TTL))
	default:
		return p.Do(ctx, "lockbench-unknown-kind", c.Kind.String())
	}
	if full {
		return s.Eval(ctx, p, []string{c.Key}, args...)
	}
	return s.EvalSha(ctx, p, []string{c.Key}, args...)
}

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
