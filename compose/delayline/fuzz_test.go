package delayline

import "testing"

// FuzzParseDistance: whatever a user types as --rtt, it parses or is
// refused, never a panic; a distance prints as a string that parses back
// to it.
func FuzzParseDistance(f *testing.F) {
	for _, s := range []string{"0", "1ms", "1ms±100us", "300us+-20us", "-1ms", "1ms±", "±1ms", "9999999h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDistance(s)
		if err != nil {
			return
		}
		again, err := ParseDistance(d.String())
		if err != nil || again != d {
			t.Fatalf("%q parses as %+v, printed %q, which parses as %+v (%v)", s, d, d.String(), again, err)
		}
	})
}
