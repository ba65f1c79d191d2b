package drivers

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func TestErrorLogKeepsMessages(t *testing.T) {
	tests := []struct {
		name      string
		errs      []string // in order, on master 0
		wantMsgs  int
		wantOther int64
	}{
		{"one message", []string{"READONLY x", "READONLY x", "READONLY x"}, 1, 0},
		{"bounded", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "a"}, maxErrorMessages, 0},
		{"local port ignored", []string{"read tcp 127.0.0.1:5001->127.0.0.1:6379: i/o timeout", "read tcp 127.0.0.1:5002->127.0.0.1:6379: i/o timeout"}, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewErrorLog(2)
			for _, e := range tc.errs {
				l.Failed(0, errors.New(e))
			}
			rep := l.Report()
			if len(rep) != 1 || rep[0].Master != 0 {
				t.Fatalf("report %+v: want master 0 alone", rep)
			}
			r := rep[0]
			var sum int64
			for _, m := range r.Messages {
				sum += m.Count
			}
			if len(r.Messages) != tc.wantMsgs || r.Other != tc.wantOther || sum+r.Other != int64(len(tc.errs)) || r.Errors != int64(len(tc.errs)) {
				t.Fatalf("report %+v: want %d messages, other %d, all %d errors accounted", r, tc.wantMsgs, tc.wantOther, len(tc.errs))
			}
			if !r.NeverAnswered || r.FailingSince.IsZero() || r.Streak != int64(len(tc.errs)) {
				t.Fatalf("report %+v: a master that only failed is failing and never answered", r)
			}
		})
	}
}

// An answer ends the failing streak; the errors stay counted.
func TestErrorLogAnswerResetsStreak(t *testing.T) {
	l := NewErrorLog(1)
	l.Failed(0, errors.New("EOF"))
	l.Answered(0)
	r := l.Report()[0]
	if !r.FailingSince.IsZero() || r.Streak != 0 || r.NeverAnswered || r.Errors != 1 {
		t.Fatalf("after an answer: %+v", r)
	}
	l.Failed(0, errors.New("EOF"))
	if r := l.Report()[0]; r.FailingSince.IsZero() || r.Streak != 1 || r.Errors != 2 {
		t.Fatalf("failing again: %+v", r)
	}
}

// Concurrent failures of many messages: every error is accounted for, in
// a kept message or in Other (run with -race).
func TestErrorLogConcurrent(t *testing.T) {
	l := NewErrorLog(3)
	const workers, each = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := i % 3
				if i%7 == 0 {
					l.Answered(m)
					continue
				}
				l.Failed(m, fmt.Errorf("error %d", (w+i)%6))
			}
		}()
	}
	wg.Wait()
	var total int64
	for _, r := range l.Report() {
		n := r.Other
		for _, m := range r.Messages {
			n += m.Count
		}
		if n != r.Errors || len(r.Messages) > maxErrorMessages {
			t.Fatalf("master %d: %d accounted of %d errors, %d messages", r.Master, n, r.Errors, len(r.Messages))
		}
		total += r.Errors
	}
	if want := int64(workers * (each - (each+6)/7)); total != want {
		t.Fatalf("%d errors logged, want %d", total, want)
	}
}

// The success path allocates nothing, nor does a message already kept.
func TestErrorLogAllocations(t *testing.T) {
	l := NewErrorLog(1)
	err := errors.New("READONLY You can't write against a read only replica.")
	l.Failed(0, err)
	if n := testing.AllocsPerRun(1000, func() { l.Answered(0) }); n != 0 {
		t.Errorf("Answered: %v allocs", n)
	}
	if n := testing.AllocsPerRun(1000, func() { l.Failed(0, err) }); n != 0 {
		t.Errorf("Failed with a kept message: %v allocs", n)
	}
}

// TestErrorLogKeepsTheMostFrequent: a message that dominates after the
// slots were filled by others (a master hitting maxmemory mid-run) is kept
// and reported first, its count within its overcount of the truth; rare
// messages that came first give way.
func TestErrorLogKeepsTheMostFrequent(t *testing.T) {
	l := NewErrorLog(1)
	for i := range 3 * maxErrorMessages {
		l.Failed(0, fmt.Errorf("read tcp 10.0.0.%d:6379: i/o timeout", i))
	}
	const oom = "OOM command not allowed when used memory > 'maxmemory'."
	for range 1000 {
		l.Failed(0, errors.New(oom))
	}
	r := l.Report()[0]
	top := r.Messages[0]
	if top.Message != oom || top.Count < 1000 || top.Count-top.Overcount > 1000 {
		t.Fatalf("messages %+v: want %q first, counted 1000 within its overcount", r.Messages, oom)
	}
	var sum int64
	for _, m := range r.Messages {
		sum += m.Count
	}
	if sum+r.Other != r.Errors || len(r.Messages) > maxErrorMessages {
		t.Fatalf("%+v: %d of %d errors accounted", r, sum+r.Other, r.Errors)
	}
}

// TestNormalizeErrorOneLine: a multi-line driver error is kept as one line.
func TestNormalizeErrorOneLine(t *testing.T) {
	if got := normalizeError("pq: FATAL\n  DETAIL: too many clients\r\n"); got != "pq: FATAL DETAIL: too many clients" {
		t.Errorf("got %q", got)
	}
}

// TestErrorLogFailuresNotedOutOfOrder: failures noted in another order than
// their clock readings (a goroutine descheduled in between) still give the
// earliest as the first failure and the streak's start, so a master is
// never said to have stopped answering before its first error.
func TestErrorLogFailuresNotedOutOfOrder(t *testing.T) {
	l := NewErrorLog(1)
	err := errors.New("connection refused")
	l.failedAt(0, err, 200)
	l.failedAt(0, err, 100)
	l.failedAt(0, err, 300)
	r := l.Report()[0]
	if r.First.UnixNano() != 100 || r.FailingSince.UnixNano() != 100 || r.Streak != 3 {
		t.Fatalf("first %d, failing since %d, streak %d: want 100, 100, 3", r.First.UnixNano(), r.FailingSince.UnixNano(), r.Streak)
	}
	l.Answered(0)
	l.failedAt(0, err, 500)
	l.failedAt(0, err, 400)
	if r := l.Report()[0]; r.First.UnixNano() != 100 || r.FailingSince.UnixNano() != 400 || r.Streak != 2 {
		t.Fatalf("after an answer: first %d, failing since %d, streak %d: want 100, 400, 2", r.First.UnixNano(), r.FailingSince.UnixNano(), r.Streak)
	}
}
