package drivers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// NoAnswer reports whether err is a deadline that passed waiting for a
// server — the context's (context deadline exceeded) or the connection's
// (i/o timeout) — and whether it passed while connecting (dial). A client's
// own words for it do not say that the server was silent; a connection it
// closed after a timeout can surface in later calls as "use of closed
// network connection", which NoAnswer counts too.
// A joined error (several attempts, as pgx's connect makes) is a timeout
// if one of them is, a dial timeout only if every timeout is one.
//
// It walks err's tree by hand: errors.As would allocate, and the error
// log counts a message it already keeps without allocating.
func NoAnswer(err error) (ok, dial bool) {
	var f noAnswerFlags
	f.walk(err, false)
	switch {
	case f.answer:
		return true, false
	case f.connect:
		return true, true
	case f.closed:
		return true, false
	}
	return false, false
}

// noAnswerFlags are what NoAnswer found: a timeout waiting for an answer,
// one connecting, a connection closed by the client.
type noAnswerFlags struct{ answer, connect, closed bool }

func (f *noAnswerFlags) walk(err error, dial bool) {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *net.OpError:
			dial = dial || x.Op == "dial"
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				f.walk(c, dial)
			}
			return
		}
		timeout := e == context.DeadlineExceeded || e == os.ErrDeadlineExceeded
		if t, ok := e.(interface{ Timeout() bool }); ok && t.Timeout() {
			timeout = true
		}
		switch {
		case timeout && dial:
			f.connect = true
		case timeout:
			f.answer = true
		case e == net.ErrClosed && !dial:
			f.closed = true
		}
	}
}

// noAnswerText is what an ErrorLog says of a call that timed out.
type noAnswerText struct{ answer, connect string }

// newNoAnswerText describes timeouts of d (0: unknown) named what.
func newNoAnswerText(d time.Duration, what string) noAnswerText {
	if d <= 0 {
		return noAnswerText{answer: schema.NoAnswer + " before the call's deadline", connect: schema.NoConnection + " before the call's deadline"}
	}
	return noAnswerText{answer: fmt.Sprintf("%s within %v (%s)", schema.NoAnswer, d, what),
		connect: fmt.Sprintf("%s within %v (%s)", schema.NoConnection, d, what)}
}
