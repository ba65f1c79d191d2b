package drivers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// A call that timed out is counted as what happened — the server gave no
// answer within the call's bound — whatever the client's own words.
func TestErrorLogSaysNoAnswer(t *testing.T) {
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	readTimeout := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	closed := &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}
	tests := []struct {
		name    string
		err     error
		timeout time.Duration
		want    string
	}{
		{"read i/o timeout", readTimeout, 50 * time.Millisecond, "no answer within 50ms (node timeout)"},
		{"context deadline", context.DeadlineExceeded, 50 * time.Millisecond, "no answer within 50ms (node timeout)"},
		{"wrapped deadline", fmt.Errorf("redlock: %w", context.DeadlineExceeded), time.Second, "no answer within 1s (node timeout)"},
		{"closed after a timeout", closed, 50 * time.Millisecond, "no answer within 50ms (node timeout)"},
		{"dial timeout", dialTimeout, 50 * time.Millisecond, "no connection within 50ms (node timeout)"},
		{"one of several attempts", errors.Join(&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, dialTimeout), 50 * time.Millisecond, "no answer within 50ms (node timeout)"},
		{"no bound known", readTimeout, 0, "no answer before the call's deadline"},
		{"a reply is kept", errors.New("READONLY You can't write against a read only replica."), 50 * time.Millisecond, "READONLY You can't write against a read only replica."},
		{"refused connection", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}, 50 * time.Millisecond, "dial tcp: connect: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewErrorLog(1)
			if tt.timeout > 0 {
				l.SetTimeout(tt.timeout, "node timeout")
			}
			l.Failed(0, tt.err)
			rep := l.Report()
			if len(rep) != 1 || len(rep[0].Messages) != 1 {
				t.Fatalf("report %+v", rep)
			}
			if got := rep[0].Messages[0].Message; got != tt.want {
				t.Errorf("message %q, want %q", got, tt.want)
			}
			if strings.Contains(rep[0].Messages[0].Message, "closed network connection") {
				t.Error("a timeout reported as a closed connection")
			}
			if n := testing.AllocsPerRun(100, func() { l.Failed(0, tt.err) }); strings.HasPrefix(tt.want, "no ") && n != 0 {
				t.Errorf("counting a kept message: %v allocs", n)
			}
		})
	}
}
