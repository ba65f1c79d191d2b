package delayline

import (
	"fmt"
	"strings"
	"time"
)

// Pair is one delayed path: clients dial Listen, the line dials Target
// for each of them.
type Pair struct {
	Listen string // host:port; port 0 picks a free one
	Target string
	Distance
}

// ParsePair parses "LISTEN=TARGET[@RTT[±JITTER]]"; without @, the round
// trip is def.
func ParsePair(s string, def Distance) (Pair, error) {
	l, rest, ok := strings.Cut(s, "=")
	if !ok || l == "" || rest == "" {
		return Pair{}, fmt.Errorf("pair %q: want LISTEN=TARGET[@RTT[±JITTER]]", s)
	}
	p := Pair{Listen: l, Target: rest, Distance: def}
	if t, d, ok := strings.Cut(rest, "@"); ok {
		dist, err := ParseDistance(d)
		if err != nil {
			return Pair{}, fmt.Errorf("pair %q: %w", s, err)
		}
		p.Target, p.Distance = t, dist
	}
	if err := p.Distance.Check(); err != nil {
		return Pair{}, fmt.Errorf("pair %q: %w", s, err)
	}
	return p, nil
}

// String is the pair as ParsePair reads it.
func (p Pair) String() string { return p.Listen + "=" + p.Target + "@" + p.Distance.String() }

// dialTimeout bounds the line's dial of a target for one client
// connection; the client then sees its connection closed.
const dialTimeout = 5 * time.Second

// checkSet reports why path i (0-based) of n cannot take the delays up
// and down.
func checkSet(i, n int, up, down Leg) error {
	if i < 0 || i >= n {
		return fmt.Errorf("delay line: path %d: have %d", i+1, n)
	}
	for _, g := range []Leg{up, down} {
		if g.Delay < 0 || g.Jitter < 0 {
			return fmt.Errorf("delay line: path %d: negative delay %v±%v", i+1, g.Delay, g.Jitter)
		}
	}
	return nil
}
