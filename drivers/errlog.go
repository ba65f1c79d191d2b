package drivers

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/results/redact"
)

// MaxErrorMessages is how many distinct error messages an ErrorLog keeps
// per master; later distinct ones are only counted (Other).
const MaxErrorMessages = 4

// maxMessageLen bounds a kept message.
const maxMessageLen = 200

// ErrorLog keeps, per master, the first few distinct error messages of a
// run with their counts, and whether the master is answering at the moment.
// It explains the errors and timeouts columns: a READONLY reply, a refused
// connection, a master that stopped answering.
//
// Cost: Answered (every reply that came back) is one atomic load; Failed
// (errors only) formats the message and adds to a counter, taking a mutex
// only the first time a message is seen. Safe for concurrent use.
type ErrorLog struct {
	masters []masterErrors
}

type masterErrors struct {
	used  atomic.Int32 // slots published
	slots [MaxErrorMessages]messageSlot
	mu    sync.Mutex // serialises publishing a new slot
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

type messageSlot struct {
	msg string // immutable once published (used.Store after it is set)
	n   atomic.Int64
}

// NewErrorLog makes a log for n masters.
func NewErrorLog(n int) *ErrorLog { return &ErrorLog{masters: make([]masterErrors, n)} }

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
func (l *ErrorLog) Failed(i int, err error) {
	m := &l.masters[i]
	now := time.Now().UnixNano()
	m.total.Add(1)
	m.first.CompareAndSwap(0, now)
	m.failing.CompareAndSwap(0, now)
	m.streak.Add(1)
	msg := "unknown error"
	if err != nil {
		msg = NormalizeError(err.Error())
	}
	if m.count(msg) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.count(msg) {
		return
	}
	n := int(m.used.Load())
	if n == MaxErrorMessages {
		m.other.Add(1)
		return
	}
	m.slots[n].msg = msg
	m.slots[n].n.Store(1)
	m.used.Store(int32(n + 1))
}

// count adds one to msg's slot if it is published.
func (m *masterErrors) count(msg string) bool {
	n := int(m.used.Load())
	for i := range n {
		if m.slots[i].msg == msg {
			m.slots[i].n.Add(1)
			return true
		}
	}
	return false
}

// ErrorCount is one distinct error message and how often it was seen.
type ErrorCount struct {
	Message string `json:"message"`
	Count   int64  `json:"count"`
}

// MasterErrors is what an ErrorLog knows about one master.
type MasterErrors struct {
	Master   int          // index, in the order the masters were given
	Errors   int64        // failed and timed-out commands
	Messages []ErrorCount // the first MaxErrorMessages distinct messages
	Other    int64        // errors with a message not among them
	First    time.Time    // first error; zero when none
	// FailingSince is when the master last stopped answering, zero when its
	// last command was answered; Streak counts the failures since.
	FailingSince time.Time
	Streak       int64
	// NeverAnswered: not one command to the master was answered.
	NeverAnswered bool
}

// Report lists the masters that had any error.
func (l *ErrorLog) Report() []MasterErrors {
	var out []MasterErrors
	for i := range l.masters {
		m := &l.masters[i]
		if m.total.Load() == 0 {
			continue
		}
		r := MasterErrors{Master: i, Errors: m.total.Load(), Other: m.other.Load(), First: unixTime(m.first.Load()), NeverAnswered: !m.answered.Load()}
		for j := range int(m.used.Load()) {
			r.Messages = append(r.Messages, ErrorCount{Message: m.slots[j].msg, Count: m.slots[j].n.Load()})
		}
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
	Errors() []MasterErrors
}

// localAddr matches the ephemeral local end of a socket error ("tcp
// 127.0.0.1:53122->127.0.0.1:6379"), which would make every connection's
// error distinct.
var localAddr = regexp.MustCompile(`\S+->`)

// NormalizeError makes an error message comparable across connections,
// masks any password it quotes and bounds its length.
func NormalizeError(msg string) string {
	if strings.Contains(msg, "->") {
		msg = localAddr.ReplaceAllString(msg, "")
	}
	msg = redact.String(msg) // a driver's error may quote its endpoint, password and all
	if len(msg) > maxMessageLen {
		msg = strings.ToValidUTF8(msg[:maxMessageLen], "") + "…"
	}
	return msg
}
