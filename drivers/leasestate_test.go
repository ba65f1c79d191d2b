package drivers_test

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

func TestLeaseState(t *testing.T) {
	var s drivers.LeaseState
	at := time.Now().Add(time.Second)
	s.SetValidUntil(at)
	if !s.ValidUntil().Equal(at) || s.Ended() {
		t.Fatalf("valid until %v ended %v", s.ValidUntil(), s.Ended())
	}
	if s.End() {
		t.Error("first End: already ended")
	}
	if !s.End() || !s.Ended() {
		t.Error("second End: not reported as already ended")
	}
}
