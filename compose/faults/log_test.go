package faults

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// nopServer is a server whose every action succeeds at once.
type nopServer struct{}

func (nopServer) Kill() error                 { return nil }
func (nopServer) Start(context.Context) error { return nil }
func (nopServer) Pause() error                { return nil }
func (nopServer) Resume() error               { return nil }

// overlapWriter counts the writes that began while another was under way.
type overlapWriter struct {
	in, overlaps, lines atomic.Int32
}

func (w *overlapWriter) Write(p []byte) (int, error) {
	if w.in.Add(1) > 1 {
		w.overlaps.Add(1)
	}
	time.Sleep(time.Millisecond) // widen the window a concurrent write would land in
	w.in.Add(-1)
	w.lines.Add(1)
	return len(p), nil
}

// TestLogWrittenOneLineAtATime: events of several masters and faults happen
// at once; the log writer (a library user's, not necessarily safe for
// concurrent use) gets one line at a time, one per event.
func TestLogWrittenOneLineAtATime(t *testing.T) {
	servers := make([]server, 8)
	for i := range servers {
		servers[i] = nopServer{}
	}
	var w overlapWriter
	s := Start(context.Background(), mustParse(t,
		"kill:masters=1,2,3,4:at=0s:restart=immediate", "stop:masters=5,6,7,8:at=0s:for=1ms"),
		Target{Servers: servers, TTL: time.Second, Log: &w})
	waitEvents(t, s, 16) // kill, restart, ready per killed master; stop, resume per stopped one
	evs := s.Stop()
	noErrors(t, evs)
	if n := w.overlaps.Load(); n != 0 {
		t.Errorf("%d log writes began while another was under way", n)
	}
	if got := int(w.lines.Load()); got != len(evs) {
		t.Errorf("%d log lines for %d events", got, len(evs))
	}
}
