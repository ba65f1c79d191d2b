package multiplex

import (
	"strconv"
	"sync/atomic"
	"time"
)

// TTLArg keeps the last TTL's millisecond string, the PX argument of a
// Cmd: a run uses one TTL, so node adapters stop formatting it per
// command. The zero value is ready; it is safe for concurrent use.
type TTLArg struct{ last atomic.Pointer[ttlString] }

type ttlString struct {
	ttl time.Duration
	s   string
}

// Millis is ttl in milliseconds, as a string.
func (c *TTLArg) Millis(ttl time.Duration) string {
	if t := c.last.Load(); t != nil && t.ttl == ttl {
		return t.s
	}
	t := &ttlString{ttl: ttl, s: strconv.FormatInt(ttl.Milliseconds(), 10)}
	c.last.Store(t)
	return t.s
}
