package compose

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// go-redis logs dial failures to stderr on its own; lockbench reports errors
// itself, once, per master. The CLI silences the library's logger by calling
// QuietClientLogs; importing this package changes no process-wide setting.
type silentLogger struct{}

func (silentLogger) Printf(context.Context, string, ...any) {}

// QuietClientLogs silences go-redis's process-wide logger.
func QuietClientLogs() { redis.SetLogger(silentLogger{}) }
