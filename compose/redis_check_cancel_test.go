package compose_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// TestCheckMasterEndsOnCancel: a master that accepts and never answers
// holds the check in its PING; cancelling the context (Ctrl-C) ends it
// then, with the cancellation, not after the check's own 5 s deadline
// (go-redis bounds a command by the deadline only: the read used to time
// out, "i/o timeout", 4 s after the Ctrl-C).
func TestCheckMasterEndsOnCancel(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 64)
		_, _ = c.Read(buf) // the PING (or HELLO) is in flight
		cancel()
		_, _ = c.Read(buf) // until the client hangs up
	}()
	eps, err := redisconn.Parse([]string{ln.Addr().String()}, redisconn.Auth{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compose.CheckMaster(ctx, eps[0])
	if err == nil {
		t.Fatal("a master that never answers passed the check")
	}
	if ctx.Err() == nil {
		t.Fatalf("the check ended before the cancel: %v", err)
	}
	if strings.Contains(err.Error(), "timeout") {
		t.Fatalf("the check waited out its deadline after the cancel: %v", err)
	}
}

// TestCheckMasterSaysNoAnswer: a master that accepts and never answers is
// reported as what it is — no answer within the check's bound — not as
// the client's "use of closed network connection" or "i/o timeout".
func TestCheckMasterSaysNoAnswer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	eps, err := redisconn.Parse([]string{ln.Addr().String()}, redisconn.Auth{})
	if err != nil {
		t.Fatal(err)
	}
	// The check's own bound, shortened: the subject is how running out of
	// it is said, not how long it is.
	_, err = compose.CheckMasterWithin(context.Background(), eps[0], 500*time.Millisecond)
	if err == nil {
		t.Fatal("a master that never answers passed the check")
	}
	msg := err.Error()
	if !strings.Contains(msg, "no answer within 500ms") || strings.Contains(msg, "closed network connection") || strings.Contains(msg, "i/o timeout") {
		t.Errorf("message %q: want it to say the server did not answer within the check's 500ms", msg)
	}
}
