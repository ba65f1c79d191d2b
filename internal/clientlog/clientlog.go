// Package clientlog silences the process-wide loggers of the Redis client
// libraries: lockbench reports errors itself, once, per master. The CLI
// and the tests that run it in-process call Quiet; importing the package
// changes no setting.
package clientlog

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// go-redis logs dial failures to stderr on its own.
type silentLogger struct{}

func (silentLogger) Printf(context.Context, string, ...any) {}

// Quiet silences go-redis's process-wide logger.
func Quiet() { redis.SetLogger(silentLogger{}) }
