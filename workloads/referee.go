package workloads

// Referee is told of every grant and release, on the run clock, by every
// worker. It sees what no single client can (results.Referee implements it).
// It is called on the hot path: implementations shard by key.
type Referee interface {
	// Granted: worker holds key from granted until validUntil (fence where
	// the backend has one, else 0).
	Granted(worker int, key string, granted, validUntil int64, fence uint64)
	// Released: worker stopped using key at `at`.
	Released(worker int, key string, at int64)
}

type noReferee struct{}

func (noReferee) Granted(int, string, int64, int64, uint64) {}
func (noReferee) Released(int, string, int64)               {}
