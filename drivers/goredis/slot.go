package goredis

import (
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

// The scripts' sources and SHAs, addressable: commands refer to them as
// *string, which go-redis writes without boxing.
var (
	releaseSrc, extendSrc = redlock.ReleaseScript, redlock.ExtendScript
	releaseSHA, extendSHA = releaseScript.Hash(), extendScript.Hash()
)

// slot is one command's reusable storage on the plain client: the
// arguments live in the slot and reach go-redis as *string (no boxing), and
// each command shape's Cmd is made once. go-redis is done with a Cmd when
// Process (or the pipeline) returns, so a slot is reused right after. Not
// for the auto-pipeliner, which may still hold a command its caller gave up
// on: auto mode builds fresh commands.
type slot struct {
	key, token, ttl string

	set              *redis.BoolCmd // SET key token NX PX ttl
	relSHA, extSHA   *redis.Cmd     // EVALSHA sha 1 key token [ttl]
	relEval, extEval *redis.Cmd     // EVAL src 1 key token [ttl]
	setArgs          [6]any
	relSHAArgs       [5]any
	extSHAArgs       [6]any
	relEvalArgs      [5]any
	extEvalArgs      [6]any
}

var slots = sync.Pool{New: func() any { return newSlot() }}

func newSlot() *slot {
	s := &slot{}
	s.setArgs = [6]any{"set", &s.key, &s.token, "nx", "px", &s.ttl}
	s.relSHAArgs = [5]any{"evalsha", &releaseSHA, "1", &s.key, &s.token}
	s.extSHAArgs = [6]any{"evalsha", &extendSHA, "1", &s.key, &s.token, &s.ttl}
	s.relEvalArgs = [5]any{"eval", &releaseSrc, "1", &s.key, &s.token}
	s.extEvalArgs = [6]any{"eval", &extendSrc, "1", &s.key, &s.token, &s.ttl}
	s.set = redis.NewBoolCmd(nil, s.setArgs[:]...)
	s.relSHA = redis.NewCmd(nil, s.relSHAArgs[:]...)
	s.extSHA = redis.NewCmd(nil, s.extSHAArgs[:]...)
	s.relEval = redis.NewCmd(nil, s.relEvalArgs[:]...)
	s.extEval = redis.NewCmd(nil, s.extEvalArgs[:]...)
	return s
}

// prepare fills the slot for c and returns its command, reset; full sends
// a script's source (EVAL) instead of its SHA. nil for an unknown kind.
func (s *slot) prepare(c multiplex.Cmd, ttl *multiplex.TTLArg, full bool) redis.Cmder {
	s.key, s.token = c.Key, c.Token
	switch c.Kind {
	case multiplex.Acquire:
		s.ttl = ttl.Millis(c.TTL)
		s.set.SetVal(false)
		s.set.SetErr(nil)
		return s.set
	case multiplex.Release:
		return reset(pick(full, s.relEval, s.relSHA))
	case multiplex.Extend:
		s.ttl = ttl.Millis(c.TTL)
		return reset(pick(full, s.extEval, s.extSHA))
	}
	return nil
}

// release drops the slot's references and returns it to the pool.
func (s *slot) release() {
	s.key, s.token = "", ""
	slots.Put(s)
}

func pick(full bool, eval, sha *redis.Cmd) *redis.Cmd {
	if full {
		return eval
	}
	return sha
}

func reset(c *redis.Cmd) *redis.Cmd {
	c.SetVal(nil)
	c.SetErr(nil)
	return c
}
