package safety

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
)

// A hushed holder's connection carries nothing either way while hushed,
// and everything sent meanwhile arrives after speak, in order, none lost:
// what a stopped process's sockets do.
func TestHushHoldsAndDelivers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // an echo server
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	p, err := compose.StartProxies([]string{ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	s := &silenced{proxies: []*compose.Proxies{p}}
	defer s.Close()
	c, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	line := func(wait time.Duration) (string, error) {
		_ = c.SetReadDeadline(time.Now().Add(wait))
		return r.ReadString('\n')
	}
	if _, err := io.WriteString(c, "before\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := line(5 * time.Second); err != nil || got != "before\n" {
		t.Fatalf("before the hush: %q, %v", got, err)
	}

	speak, err := s.hush(0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"one\n", "two\n", "three\n"}
	for _, w := range want {
		if _, err := io.WriteString(c, w); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := line(300 * time.Millisecond); err == nil || got != "" {
		t.Fatalf("hushed, the connection carried %q (%v)", got, err)
	}
	speak()
	for _, w := range want {
		got, err := line(5 * time.Second)
		if err != nil || got != w {
			t.Fatalf("after speak: %q, %v; want %q", got, err, w)
		}
	}
}
