package workloads

import (
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
)

// Judge is told of every attempt, grant and release, on the run clock, by
// every worker. It sees what no single client can (referee.Referee
// implements it). It is called on the hot path: implementations shard by key.
type Judge interface {
	// Attempting: worker starts one attempt on key.
	Attempting(worker int, key string, start int64)
	// Granted: worker's attempt begun at start holds key from granted until
	// validUntil (fence where the backend has one, else 0).
	Granted(worker int, key string, start, granted, validUntil int64, fence uint64)
	// Failed returns the verdict on an attempt that did not acquire, given
	// the client's own claim; it is what gets recorded.
	Failed(worker int, key string, start, end int64, claimed schema.Outcome) schema.Outcome
	// Released: worker stopped using key at `at` (before unlocking).
	Released(worker int, key string, at int64)
	// Unlocked: worker's unlock of key ended at `at`.
	Unlocked(worker int, key string, at int64)
	// CountWindow: only grants and failures in [from, until), the measured
	// window on the run clock, are counted. Called once, before any worker
	// starts.
	CountWindow(from, until int64)
}

var _ Judge = (*referee.Referee)(nil)

type noReferee struct{}

func (noReferee) Attempting(int, string, int64)                    {}
func (noReferee) Granted(int, string, int64, int64, int64, uint64) {}
func (noReferee) Failed(_ int, _ string, _, _ int64, o schema.Outcome) schema.Outcome {
	return o
}
func (noReferee) Released(int, string, int64) {}
func (noReferee) Unlocked(int, string, int64) {}
func (noReferee) CountWindow(int64, int64)    {}
