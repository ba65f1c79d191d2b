package main

import (
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
)

// bindTuning registers the client libraries' settings (backends.Tuning).
func bindTuning(fs *pflag.FlagSet, t *backends.Tuning) {
	fs.BoolVar(&t.LibraryDefaults, "client-defaults", t.LibraryDefaults, "dial the client libraries with their own defaults, ignoring the settings below (run name gets /defaults)")
	fs.DurationVar(&t.RueidisMaxFlushDelay, "rueidis-max-flush-delay", t.RueidisMaxFlushDelay, "rueidis auto: MaxFlushDelay, how long the pipe's writer waits for more commands (0: write at once, the library default)")
	fs.IntVar(&t.RueidisPipes, "rueidis-pipes", t.RueidisPipes, "rueidis auto: pipelining connections per master, a power of two (0: library default, PipelineMultiplex)")
	fs.IntVar(&t.GoredisPoolSize, "goredis-pool-size", t.GoredisPoolSize, "go-redis: connection pool per master (0: one per worker)")
	fs.IntVar(&t.GoredisAutoBatch, "goredis-auto-batch", t.GoredisAutoBatch, "go-redis auto: auto-pipeliner MaxBatchSize (0: library default)")
	fs.DurationVar(&t.GoredisAutoFlushDelay, "goredis-auto-flush-delay", t.GoredisAutoFlushDelay, "go-redis auto: auto-pipeliner MaxFlushDelay (0: library default, none)")
	fs.IntVar(&t.GoredisAutoConcurrency, "goredis-auto-concurrency", t.GoredisAutoConcurrency, "go-redis auto: auto-pipeliner MaxConcurrentBatches; above 1 unordered (0: library default, 1)")
}
