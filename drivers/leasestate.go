package drivers

import (
	"sync"
	"time"
)

// LeaseState is what every backend's lease keeps under a lock: the
// deadline its holder may trust and whether it has been released. A lease
// embeds it, and its ValidUntil is the Lease method.
type LeaseState struct {
	mu         sync.Mutex
	validUntil time.Time
	ended      bool
}

// ValidUntil is the deadline set last.
func (s *LeaseState) ValidUntil() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.validUntil
}

// SetValidUntil moves the deadline (a grant, an extension).
func (s *LeaseState) SetValidUntil(t time.Time) {
	s.mu.Lock()
	s.validUntil = t
	s.mu.Unlock()
}

// End marks the lease released and says whether it already was: the
// second Unlock of a lease finds already true.
func (s *LeaseState) End() (already bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	already, s.ended = s.ended, true
	return already
}

// Ended says whether End was called.
func (s *LeaseState) Ended() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}
