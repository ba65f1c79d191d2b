package compose

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// go-redis logs dial failures to stderr on its own; lockbench reports errors
// itself, once, so the library's logger is silenced.
type silentLogger struct{}

func (silentLogger) Printf(context.Context, string, ...any) {}

func init() { redis.SetLogger(silentLogger{}) }
