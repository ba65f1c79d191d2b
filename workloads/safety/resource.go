package safety

import "sync"

// Resource is the storage a lock protects, one register per key. Every
// write carries the writer's fencing token and the true order of its grant
// (Grant's sequence number, which only the harness knows). With fencing it
// refuses a write whose token is older than the newest it has accepted on
// the key, as Kleppmann's fenced storage does; without, it accepts every
// write. Either way it counts a write as stale when a write of a later
// grant has already landed on the key: the lost update fencing is meant to
// prevent. Safe for concurrent use.
type Resource struct {
	fencing bool
	mu      sync.Mutex
	keys    map[string]*register
	counts  WriteCounts
}

// register is one key's state: the grants handed out, and the newest
// grant and token among the writes that landed.
type register struct {
	grants   uint64
	landed   uint64 // sequence of the newest grant whose write landed
	maxToken uint64
}

// WriteCounts are what a Resource saw.
type WriteCounts struct {
	Writes        int64 `json:"writes"`
	Stale         int64 `json:"stale_writes"`
	StaleAccepted int64 `json:"stale_writes_accepted"`
	StaleRejected int64 `json:"stale_writes_rejected"`
	// FreshRejected are writes refused although no later grant had
	// written: fencing's cost when tokens disagree with the grant order.
	FreshRejected int64 `json:"fresh_writes_rejected"`
}

// NewResource is an empty resource that checks tokens when fencing is set.
func NewResource(fencing bool) *Resource {
	return &Resource{fencing: fencing, keys: map[string]*register{}}
}

// Grant numbers a grant of key in the order grants happened: call it as
// the lock is granted, before the holder writes.
func (r *Resource) Grant(key string) (seq uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg := r.reg(key)
	reg.grants++
	return reg.grants
}

// Write is a write to key by the holder of grant seq with token; it
// reports whether the resource accepted it.
func (r *Resource) Write(key string, seq, token uint64) (accepted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg := r.reg(key)
	stale := seq < reg.landed
	accepted = !r.fencing || token >= reg.maxToken
	r.counts.Writes++
	switch {
	case stale && accepted:
		r.counts.Stale++
		r.counts.StaleAccepted++
	case stale:
		r.counts.Stale++
		r.counts.StaleRejected++
	case !accepted:
		r.counts.FreshRejected++
	}
	if accepted {
		reg.landed = max(reg.landed, seq)
		reg.maxToken = max(reg.maxToken, token)
	}
	return accepted
}

// Counts is what the resource has seen so far.
func (r *Resource) Counts() WriteCounts {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts
}

func (r *Resource) reg(key string) *register {
	reg, ok := r.keys[key]
	if !ok {
		reg = &register{}
		r.keys[key] = reg
	}
	return reg
}
