package backends

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/rueidis"
	"github.com/lockbench/lockbench/results/fielderr"
)

// Tuning is the client library settings users tune, recorded in every
// result. The zero value of a field means the library's own default, except
// where DefaultTuning says otherwise.
type Tuning struct {
	// LibraryDefaults ignores every field below and dials each library as
	// it comes (rueidis auto: flush at once over 2–4 pipes; go-redis: a pool
	// of 10 × GOMAXPROCS, the auto-pipeliner's defaults): the "defaults" rows
	// of compare --client-defaults.
	LibraryDefaults bool `json:"library_defaults,omitempty" flag:"client-defaults" help:"dial the client libraries with their own defaults, ignoring the settings below (run name gets /defaults)"`
	// RueidisMaxFlushDelay and RueidisPipes configure rueidis's
	// auto-pipelining (mux auto): rueidis.Options.MaxFlushDelay and Pipes.
	RueidisMaxFlushDelay time.Duration `json:"rueidis_max_flush_delay" flag:"rueidis-max-flush-delay" help:"rueidis auto: MaxFlushDelay, how long the pipe's writer waits for more commands (0: write at once, the library default)" applies:"client=rueidis"`
	RueidisPipes         int           `json:"rueidis_pipes" flag:"rueidis-pipes" help:"rueidis auto: pipelining connections per master, a power of two (0: library default, PipelineMultiplex)" applies:"client=rueidis"`
	// GoredisPoolSize is go-redis's pool per master; 0 sizes it to the
	// workers, so no worker waits for a connection.
	GoredisPoolSize int `json:"goredis_pool_size,omitempty" flag:"goredis-pool-size" help:"go-redis: connection pool per master (0: one per worker)" applies:"client=goredis"`
	// GoredisAutoBatch, GoredisAutoFlushDelay and GoredisAutoConcurrency
	// configure go-redis's auto-pipeliner (mux auto).
	GoredisAutoBatch       int           `json:"goredis_auto_batch,omitempty" flag:"goredis-auto-batch" help:"go-redis auto: auto-pipeliner MaxBatchSize (0: library default)" applies:"client=goredis"`
	GoredisAutoFlushDelay  time.Duration `json:"goredis_auto_flush_delay,omitempty" flag:"goredis-auto-flush-delay" help:"go-redis auto: auto-pipeliner MaxFlushDelay (0: library default, none)" applies:"client=goredis"`
	GoredisAutoConcurrency int           `json:"goredis_auto_concurrency,omitempty" flag:"goredis-auto-concurrency" help:"go-redis auto: auto-pipeliner MaxConcurrentBatches; above 1 unordered (0: library default, 1)" applies:"client=goredis"`
}

// DefaultTuning is what lockbench dials auto cells with: settings that batch.
// rueidis's own defaults (MaxFlushDelay 0, 2–4 pipes per master) write
// every command alone under lock cycles, 10.1 writes per 10-command cycle
// at 64 workers. One pipe per master with a 250 µs flush delay lets the
// concurrent lockers' commands share writes: 0.48 writes per cycle at 64
// workers against 0.84 at 100 µs (the pipeline strategy writes 0.41), and
// auto's CPU per cycle went from 0.68 to 0.75 of the pipeline strategy's
// (500 µs gave no more, 1 ms lost throughput to latency). rueidis
// delays a write only while more than one command waits on the pipe, so a
// lone command is not delayed. go-redis's auto-pipeliner batches with its
// defaults (one ordered batch in flight: commands arriving meanwhile form
// the next).
func DefaultTuning() Tuning {
	return Tuning{RueidisMaxFlushDelay: 250 * time.Microsecond, RueidisPipes: 1}
}

// Sizes a client may be given, bounded so a typo is refused before any
// server starts instead of allocating until the process dies: a pipeline
// batch or an auto-pipeliner batch beyond MaxBatch commands, a pool beyond
// MaxPoolSize connections per master (lockbench runs at most 10000
// workers), more than MaxAutoConcurrency batches in flight (an
// auto-pipeliner's or a pipeline's, per master).
const (
	maxBatch           = 65536
	maxPoolSize        = 10000
	maxAutoConcurrency = 1024
)

// Validate names the flag at fault.
func (t Tuning) Validate() error {
	switch {
	case t.RueidisMaxFlushDelay < 0:
		return fielderr.Invalid("rueidis_max_flush_delay", t.RueidisMaxFlushDelay, "must not be negative")
	case t.GoredisPoolSize < 0 || t.GoredisPoolSize > maxPoolSize:
		return fielderr.Invalid("goredis_pool_size", t.GoredisPoolSize, "must be 0 (one connection per worker) to %d", maxPoolSize)
	case t.GoredisAutoBatch < 0 || t.GoredisAutoBatch > maxBatch:
		return fielderr.Invalid("goredis_auto_batch", t.GoredisAutoBatch, "must be 0 (library default) to %d", maxBatch)
	case t.GoredisAutoFlushDelay < 0:
		return fielderr.Invalid("goredis_auto_flush_delay", t.GoredisAutoFlushDelay, "must not be negative")
	case t.GoredisAutoConcurrency < 0 || t.GoredisAutoConcurrency > maxAutoConcurrency:
		return fielderr.Invalid("goredis_auto_concurrency", t.GoredisAutoConcurrency, "must be 0 (library default) to %d", maxAutoConcurrency)
	}
	if err := rueidis.CheckPipes(t.RueidisPipes); err != nil {
		return &fielderr.Error{Field: "rueidis_pipes", Value: fmt.Sprint(t.RueidisPipes), Err: err}
	}
	return nil
}

// rueidisOptions is the rueidis adapter's configuration for s.
func (s Spec) rueidisOptions(auto bool) rueidis.Options {
	o := rueidis.Options{PoolSize: s.Workers, Auto: auto}
	if auto && !s.Tuning.LibraryDefaults {
		o.MaxFlushDelay, o.Pipes = s.Tuning.RueidisMaxFlushDelay, s.Tuning.RueidisPipes
	}
	return o
}

// goredisOptions is the go-redis adapter's configuration for s.
func (s Spec) goredisOptions(auto bool) goredis.Options {
	o := goredis.Options{Auto: auto}
	if s.Tuning.LibraryDefaults {
		return o
	}
	o.PoolSize = s.Tuning.GoredisPoolSize
	if o.PoolSize == 0 {
		o.PoolSize = max(s.Workers, 1)
	}
	if auto {
		o.AutoBatch, o.AutoFlushDelay, o.AutoConcurrency = s.Tuning.GoredisAutoBatch, s.Tuning.GoredisAutoFlushDelay, s.Tuning.GoredisAutoConcurrency
	}
	return o
}
