package drivers

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/results/redact"
	"github.com/lockbench/lockbench/results/schema"
)

// maxErrorMessages is how many error messages an ErrorLog counts per
// master: a Space-Saving summary (Metwally et al.) of this many slots keeps
// every message that is more than 1/MaxErrorMessages of a master's errors,
// whenever it first came, with its count overstated by at most the count it
// took its slot over (schema.ErrorCount.Overcount).
const maxErrorMessages = 8

// maxMessageLen bounds a kept message.
const maxMessageLen = 200

// ErrorLog keeps, per master, the most frequent error messages of a run
// with their counts, and whether the master is answering at the moment.
// It explains the errors and timeouts columns: a READONLY reply, a refused
// connection, a master that stopped answering.
//
// Cost: Answered (every reply that came back) is one atomic load; Failed
// (errors only) formats the message and adds to a counter. A message
// already kept costs no lock and no allocation; one that is not takes the
// slot of the least counted (Space-Saving) under a mutex it only tries:
// when another goroutine holds it the error is counted as Other, never
// waited for. Every error is counted exactly once, in a slot or in Other.
// Safe for concurrent use.
type ErrorLog struct {
	masters  []masterErrors
	noAnswer noAnswerText
}

type masterErrors struct {
	used  atomic.Int32 // slots published
	slots [maxErrorMessages]messageSlot
	mu    sync.Mutex // serialises taking a slot
	other atomic.Int64
	total atomic.Int64
	first atomic.Int64 // unix ns of the first failure, 0 before
	// failing is the unix ns of the first failure since the master last
	// answered, 0 while it answers; streak counts those failures.
	failing  atomic.Int64
	streak   atomic.Int64
	answered atomic.Bool // any command answered at all
	_        [64]byte    // keep masters' hot words off each other's cache line
}

// messageSlot is one counted message. msg is replaced (under mu) when the
// slot is taken over; n keeps counting through it, over the count it had
// then (over).
type messageSlot struct {
	msg  atomic.Pointer[string]
	n    atomic.Int64
	over atomic.Int64
}

// NewErrorLog makes a log for n masters. A call that timed out is counted
// as "no answer before the call's deadline" (NoAnswer), whatever the
// client's words for it; SetTimeout names the deadline.
func NewErrorLog(n int) *ErrorLog {
	return &ErrorLog{masters: make([]masterErrors, n), noAnswer: newNoAnswerText(0, "")}
}

// SetTimeout says what bounds one call, d named what ("node timeout"):
// timeouts are then counted as "no answer within d (what)". Call it before
// the log is used.
func (l *ErrorLog) SetTimeout(d time.Duration, what string) { l.noAnswer = newNoAnswerText(d, what) }

// Answered notes that master i answered (any reply, refusals included).
func (l *ErrorLog) Answered(i int) {
	m := &l.masters[i]
	if !m.answered.Load() {
		m.answered.Store(true)
	}
	if m.failing.Load() != 0 {
		m.failing.Store(0)
		m.streak.Store(0)
	}
}

// Failed counts a failed or timed-out command on master i.
func (l *ErrorLog) Failed(i int, err error) { l.failedAt(i, err, time.Now().UnixNano()) }

func (l *ErrorLog) failedAt(i int, err error, now int64) {
	m := &l.masters[i]
	m.total.Add(1)
	earliest(&m.first, now)
	earliest(&m.failing, now)
	m.streak.Add(1)
	msg := "unknown error"
	if ok, dial := NoAnswer(err); ok && dial {
		msg = l.noAnswer.connect
	} else if ok {
		msg = l.noAnswer.answer
	} else if err != nil {
		msg = normalizeError(err.Error())
	}
	if m.count(msg) {
		return
	}
	if !m.mu.TryLock() {
		m.other.Add(1) // another message is taking a slot: not waited for
		return
	}
	defer m.mu.Unlock()
	if m.count(msg) {
		return
	}
	kept := new(string) // only here: msg itself stays off the heap on the hit path
	*kept = msg
	n := int(m.used.Load())
	if n < maxErrorMessages {
		m.slots[n].msg.Store(kept)
		m.slots[n].n.Add(1)
		m.used.Store(int32(n + 1))
		return
	}
	// Space-Saving: the least counted slot is msg's now, its count msg's
	// estimate (an overcount by what it held).
	least := &m.slots[0]
	for j := 1; j < n; j++ {
		if m.slots[j].n.Load() < least.n.Load() {
			least = &m.slots[j]
		}
	}
	least.over.Store(least.n.Load())
	least.msg.Store(kept)
	least.n.Add(1)
}

// earliest sets v to ns when v is unset (0) or later. Goroutines that
// failed at once note it in any order (one may be descheduled between
// reading the clock and noting it): the first failure, and the first of a
// streak, is the earliest clock reading, so a streak never starts before
// the first failure.
func earliest(v *atomic.Int64, ns int64) {
	for {
		old := v.Load()
		if (old != 0 && old <= ns) || v.CompareAndSwap(old, ns) {
			return
		}
	}
}

// count adds one to msg's slot if it is published.
func (m *masterErrors) count(msg string) bool {
	n := int(m.used.Load())
	for i := range n {
		if p := m.slots[i].msg.Load(); p != nil && *p == msg {
			m.slots[i].n.Add(1)
			return true
		}
	}
	return false
}

// MasterReport is what an ErrorLog knows about one master.
type MasterReport struct {
	Master   int                 // index, in the order the masters were given
	Errors   int64               // failed and timed-out commands
	Messages []schema.ErrorCount // the most frequent messages, at most MaxErrorMessages, most counted first
	Other    int64               // errors counted in no message (a slot was being taken meanwhile)
	First    time.Time           // first error; zero when none
	// FailingSince is when the master last stopped answering, zero when its
	// last command was answered; Streak counts the failures since.
	FailingSince time.Time
	Streak       int64
	// NeverAnswered: not one command to the master was answered.
	NeverAnswered bool
}

// Report lists the masters that had any error.
func (l *ErrorLog) Report() []MasterReport {
	var out []MasterReport
	for i := range l.masters {
		m := &l.masters[i]
		if m.total.Load() == 0 {
			continue
		}
		r := MasterReport{Master: i, Errors: m.total.Load(), Other: m.other.Load(), First: unixTime(m.first.Load()), NeverAnswered: !m.answered.Load()}
		for j := range int(m.used.Load()) {
			s := &m.slots[j]
			r.Messages = append(r.Messages, schema.ErrorCount{Message: *s.msg.Load(), Count: s.n.Load(), Overcount: s.over.Load()})
		}
		sort.SliceStable(r.Messages, func(a, b int) bool { return r.Messages[a].Count > r.Messages[b].Count })
		if since := m.failing.Load(); since != 0 {
			r.FailingSince, r.Streak = unixTime(since), m.streak.Load()
		}
		out = append(out, r)
	}
	return out
}

func unixTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// ErrorReporter is a Locker that keeps per-master error messages.
type ErrorReporter interface {
	Errors() []MasterReport
}

// localAddr matches the ephemeral local end of a socket error ("tcp
// 127.0.0.1:53122->127.0.0.1:6379"), which would make every connection's
// error distinct.
var localAddr = regexp.MustCompile(`\S+->`)

// normalizeError makes an error message comparable across connections,
// masks any password it quotes, makes it one line and bounds its length.
func normalizeError(msg string) string {
	if strings.ContainsAny(msg, "\r\n") { // one line per message under the table
		msg = strings.Join(strings.Fields(msg), " ")
	}
	if strings.Contains(msg, "->") {
		msg = localAddr.ReplaceAllString(msg, "")
	}
	msg = redact.String(msg) // a driver's error may quote its endpoint, password and all
	if len(msg) > maxMessageLen {
		msg = strings.ToValidUTF8(msg[:maxMessageLen], "") + "…"
	}
	return msg
}
