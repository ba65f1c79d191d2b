// Package results records what a run measured: HDR bucket counters in a
// fixed set of shards, drained on a tick without a lock or channel per sample, the summary JSON
// (schema lockbench/v1, typed measures under "extra": run_extra.go),
// tables, CSV, interval logs, merging and the HTML report. It imports
// nothing else of lockbench but its leaves schema (the op and outcome
// vocabulary, Server) and fielderr (bad input by config field). Its
// subpackages build on it: referee (mutual exclusion ground truth), gate
// (CI thresholds and baselines), capacity (sweep result types), prom (live
// metrics).
package results

import (
	"github.com/lockbench/lockbench/results/schema"
)

// The vocabulary lives in results/schema, a leaf drivers and compose
// import; these names keep it where the recorder's users look for it.
type (
	Op      = schema.Op
	Outcome = schema.Outcome
	Server  = schema.Server
)

const (
	OpAcquire      = schema.OpAcquire
	OpAcquireTotal = schema.OpAcquireTotal
	OpRelease      = schema.OpRelease
	OpCycle        = schema.OpCycle
	OpExtend       = schema.OpExtend
	NumOps         = schema.NumOps

	OK          = schema.OK
	Busy        = schema.Busy
	SplitBrain  = schema.SplitBrain
	Timeout     = schema.Timeout
	Error       = schema.Error
	NumOutcomes = schema.NumOutcomes
	canceled    = schema.Canceled
)

// Ops lists every op in order.
func Ops() []Op { return schema.Ops() }
