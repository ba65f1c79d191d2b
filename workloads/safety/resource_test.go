package safety

import "testing"

// The rounds of a paused holder: A is granted and writes at entry, B is
// granted after A's lease lapsed and writes, then A resumes and writes.
func TestResource(t *testing.T) {
	type write struct {
		grant    int // index into the grants taken
		token    uint64
		accepted bool
	}
	for _, c := range []struct {
		name    string
		fencing bool
		grants  int
		writes  []write
		want    WriteCounts
	}{
		{"paused holder, no fencing: the stale write lands", false, 2,
			[]write{{0, 1, true}, {1, 2, true}, {0, 1, true}},
			WriteCounts{Writes: 3, Stale: 1, StaleAccepted: 1}},
		{"paused holder, fencing: the stale write is refused", true, 2,
			[]write{{0, 1, true}, {1, 2, true}, {0, 1, false}},
			WriteCounts{Writes: 3, Stale: 1, StaleRejected: 1}},
		{"successor not written yet: nothing stale to refuse", true, 2,
			[]write{{0, 1, true}, {0, 1, true}, {1, 2, true}},
			WriteCounts{Writes: 3}},
		{"tokens against the grant order: a fresh write refused", true, 2,
			[]write{{0, 5, true}, {1, 4, false}},
			WriteCounts{Writes: 2, FreshRejected: 1}},
		{"the successor writes again after a refused stale write", true, 2,
			[]write{{0, 5, true}, {1, 6, true}, {0, 5, false}, {1, 6, true}},
			WriteCounts{Writes: 4, Stale: 1, StaleRejected: 1}},
		{"counter taken late: the stale token is newer and lands", true, 2,
			[]write{{1, 1, true}, {0, 2, true}},
			WriteCounts{Writes: 2, Stale: 1, StaleAccepted: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewResource(c.fencing)
			seqs := make([]uint64, c.grants)
			for i := range seqs {
				seqs[i] = r.Grant("k")
			}
			for i, w := range c.writes {
				if got := r.Write("k", seqs[w.grant], w.token); got != w.accepted {
					t.Errorf("write %d (grant %d, token %d): accepted %v, want %v", i, w.grant, w.token, got, w.accepted)
				}
			}
			if got := r.Counts(); got != c.want {
				t.Errorf("counts %+v, want %+v", got, c.want)
			}
		})
	}
}

// Keys are independent registers.
func TestResourceKeys(t *testing.T) {
	r := NewResource(true)
	a, b := r.Grant("a"), r.Grant("b")
	if !r.Write("a", a, 10) || !r.Write("b", b, 1) {
		t.Fatal("a write to a fresh key was refused")
	}
	if c := r.Counts(); c.Stale != 0 || c.FreshRejected != 0 {
		t.Fatalf("counts %+v: keys share a register", c)
	}
}
