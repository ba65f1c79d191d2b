package generators

import (
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/generators/crossref"
)

// LogGrants is r, with every grant of the measured window also logged in
// l (per-worker buffers: no lock on the hot path) for the referee across
// generators.
func LogGrants(r workloads.Judge, l *crossref.Log) workloads.Judge { return tee{r, l} }

type tee struct {
	workloads.Judge
	log *crossref.Log
}

func (t tee) Granted(worker int, key string, start, granted, validUntil int64, fence uint64) {
	t.log.Grant(worker, key, granted, validUntil, fence)
	t.Judge.Granted(worker, key, start, granted, validUntil, fence)
}

func (t tee) Released(worker int, key string, at int64) {
	t.log.Release(worker, key, at)
	t.Judge.Released(worker, key, at)
}

func (t tee) CountWindow(from, until int64) {
	t.log.Window(from, until)
	t.Judge.CountWindow(from, until)
}
