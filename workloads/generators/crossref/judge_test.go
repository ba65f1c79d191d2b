package crossref

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

// TestJudge: an overlap longer than both error bounds is a violation, one
// within them (or a gap within them) undecidable, a wider gap safe; grants
// of one generator are left to its own referee.
func TestJudge(t *testing.T) {
	const us = 1000
	grant := func(key string, from, to int64) Grant {
		return Grant{Key: key, Granted: from * us, ValidUntil: to * us, Release: math.MaxInt64}
	}
	for _, c := range []struct {
		name                    string
		a, b                    Grant
		errA, errB              int64 // µs
		violations, undecidable int64
	}{
		{"overlap beyond the bounds", grant("k", 0, 100), grant("k", 50, 150), 10, 10, 1, 0},
		{"overlap within the bounds", grant("k", 0, 100), grant("k", 90, 150), 10, 10, 0, 1},
		{"gap within the bounds", grant("k", 0, 100), grant("k", 110, 150), 10, 10, 0, 1},
		{"gap beyond the bounds", grant("k", 0, 100), grant("k", 130, 150), 10, 10, 0, 0},
		{"touching, exact clocks", grant("k", 0, 100), grant("k", 100, 150), 0, 0, 0, 0},
		{"other keys", grant("k", 0, 100), grant("j", 50, 150), 0, 0, 0, 0},
		{"released before validity", Grant{Key: "k", Granted: 0, ValidUntil: 200 * us, Release: 40 * us}, grant("k", 50, 150), 1, 1, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Judge([]Timed{{Generator: 0, ErrorNS: c.errA * us, Grants: []Grant{c.a}}, {Generator: 1, ErrorNS: c.errB * us, Grants: []Grant{c.b}}})
			if v.Violations != c.violations || v.Undecidable != c.undecidable || v.Grants != 2 {
				t.Fatalf("got %+v, want %d violations, %d undecidable", v, c.violations, c.undecidable)
			}
			same := Judge([]Timed{{Generator: 0, ErrorNS: c.errA * us, Grants: []Grant{c.a, c.b}}})
			if same.Violations != 0 || same.Undecidable != 0 {
				t.Fatalf("one generator's own grants judged: %+v", same)
			}
		})
	}
}

// TestEncodeRoundTrip: a grant log reads back as written (in grant order).
func TestEncodeRoundTrip(t *testing.T) {
	in := Timed{Generator: 3, ErrorNS: 12345, Grants: []Grant{
		{Key: "b", Granted: 1_700_000_000_000_000_200, ValidUntil: 1_700_000_000_010_000_000, Release: math.MaxInt64, Fence: 7},
		{Key: "a", Granted: 1_700_000_000_000_000_100, ValidUntil: 1_700_000_000_000_000_900, Release: 1_700_000_000_000_000_500},
	}}
	var buf bytes.Buffer
	if err := in.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Grants = []Grant{in.Grants[1], in.Grants[0]}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("read back %+v, want %+v", out, want)
	}
	if _, err := Decode(buf.Bytes()[:buf.Len()/2]); err == nil {
		t.Fatal("a truncated log decoded without error")
	}
}

// TestMappingInterpolatesTheOffset: between two offset measurements the
// offset moves linearly (a drifting clock); the error is the larger bound.
func TestMappingInterpolatesTheOffset(t *testing.T) {
	m := Mapping{WallAtZero: 1000, At0: 1000, At1: 3000, Offset0: 100, Offset1: 300, Error0NS: 5, Error1NS: 9}
	for _, c := range []struct{ run, want int64 }{{0, 1100}, {1000, 2200}, {2000, 3300}, {math.MaxInt64, math.MaxInt64}} {
		if got := m.Masters(c.run); got != c.want {
			t.Errorf("Masters(%d) = %d, want %d", c.run, got, c.want)
		}
	}
	if m.ErrorNS() != 9 {
		t.Errorf("error %d, want 9", m.ErrorNS())
	}
}
