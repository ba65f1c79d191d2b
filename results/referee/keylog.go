package referee

// keyLog is one key's latest grants: a ring of ringSize, held inline while
// the key has had one grant (a fresh key per cycle never has more, and
// such keys are nearly all of a fast uncontended run's live heap: 88
// bytes each instead of 248), moved to its own array at the second.
type keyLog struct {
	first     grant
	more      *[ringSize]grant // the ring once the key had a second grant; kept when the log is reused
	n         uint32           // grants ever logged on the key
	lastFence uint64
	// evictedEnd is the latest unlock among grants pushed out of the ring,
	// so a failure that overlapped one of them is still known to be busy.
	evictedEnd int64
}

// at is ring entry i (i < min(n, ringSize)).
func (kl *keyLog) at(i uint32) *grant {
	if kl.more == nil {
		return &kl.first
	}
	return &kl.more[i]
}

// next is the ring entry the next grant takes, moving the ring to its own
// array when the key gets its second grant.
func (kl *keyLog) next() *grant {
	if kl.n == 0 && kl.more == nil {
		return &kl.first
	}
	if kl.more == nil {
		kl.more = new([ringSize]grant)
		kl.more[0] = kl.first
	}
	return &kl.more[kl.n%ringSize]
}
