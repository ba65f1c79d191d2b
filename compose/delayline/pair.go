package delayline

import (
	"fmt"
	"net"
	"strconv"
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
	// Once its round trip is read, the pair is named LISTEN=TARGET, the
	// round trip apart: a word holding '@' reads as credentials to the
	// output's redaction, which masks it. Before, it is quoted whole, so
	// that credentials typed into it (user:pw@host) are masked.
	if t, d, ok := strings.Cut(rest, "@"); ok {
		dist, err := ParseDistance(d)
		if err != nil {
			return Pair{}, fmt.Errorf("pair %q: %w (the round trip follows the target's @)", s, err)
		}
		p.Target, p.Distance = t, dist
	}
	name := p.Listen + "=" + p.Target
	if err := checkAddr(p.Listen, true); err != nil {
		return Pair{}, fmt.Errorf("pair %s: LISTEN %w", name, err)
	}
	if err := checkAddr(p.Target, false); err != nil {
		return Pair{}, fmt.Errorf("pair %s: TARGET %w", name, err)
	}
	if err := p.Distance.Check(); err != nil {
		return Pair{}, fmt.Errorf("pair %s: %w", name, err)
	}
	return p, nil
}

// checkAddr checks a host:port; a port of 0 only where the line listens
// (zero picks a free one).
func checkAddr(a string, listen bool) error {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return fmt.Errorf("%q: want host:port", a)
	}
	n, err := strconv.Atoi(port)
	low := 1
	if listen {
		low = 0
	}
	if err != nil || n < low || n > 65535 {
		return fmt.Errorf("%q: port %q: want %d to 65535", a, port, low)
	}
	if host == "" && !listen {
		return fmt.Errorf("%q: no host", a)
	}
	return nil
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
