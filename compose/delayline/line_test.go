package delayline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// echo is a TCP echo server on a free loopback port.
func echo(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go echoServer(ln)
	return ln.Addr().String()
}

// serve runs a line for pairs in this process until the test ends.
func serve(t *testing.T, pairs ...Pair) *Line {
	t.Helper()
	l, err := Listen(pairs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

func dial(t testing.TB, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestLineOverlaps: chunks sent one after another in quick succession
// come back one round trip after each was sent, not one round trip after
// the previous one came back: a chunk's delivery does not wait for the
// delay of those ahead of it. A per-chunk sleep would take n round trips.
func TestLineOverlaps(t *testing.T) {
	const rtt, n = 50 * time.Millisecond, 20
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: rtt}})
	c := dial(t, l.Addrs()[0])
	start := time.Now()
	go func() {
		for i := range n {
			_, _ = c.Write([]byte{byte(i)})
			time.Sleep(time.Millisecond)
		}
	}()
	got := make([]byte, n)
	var first time.Duration
	for i := range got {
		if _, err := io.ReadFull(c, got[i:i+1]); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = time.Since(start)
		}
	}
	total := time.Since(start)
	if first < rtt {
		t.Errorf("first byte back after %v: sooner than the round trip %v", first, rtt)
	}
	if total >= n*rtt/2 {
		t.Errorf("%d bytes back after %v: the delays did not overlap (%d round trips take %v)", n, total, n, n*rtt)
	}
	for i, b := range got {
		if b != byte(i) {
			t.Fatalf("byte %d is %d: order not kept", i, b)
		}
	}
}

// TestLineKeepsEveryByte: with jitter, a megabyte written in odd-sized
// pieces comes back whole and in order.
func TestLineKeepsEveryByte(t *testing.T) {
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 2 * time.Millisecond, Jitter: 2 * time.Millisecond}})
	c := dial(t, l.Addrs()[0])
	want := make([]byte, 1<<20)
	for i := range want {
		want[i] = byte(i * 7 / 3)
	}
	go func() {
		for off := 0; off < len(want); {
			n := min(len(want)-off, 1+off%9000)
			_, _ = c.Write(want[off : off+n])
			off += n
		}
	}()
	got := make([]byte, len(want))
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for got[i] == want[i] {
			i++
		}
		t.Fatalf("byte %d differs", i)
	}
}

// roundTrip sends one byte through c to the echo server and waits for it
// back: one round trip through the line.
func roundTrip(t *testing.T, c net.Conn) time.Duration {
	t.Helper()
	start := time.Now()
	b := []byte{1}
	if _, err := c.Write(b); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// TestLineSet: a changed delay applies to the chunks that arrive after it.
func TestLineSet(t *testing.T) {
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t)})
	c := dial(t, l.Addrs()[0])
	roundTrip(t, c)
	if err := l.Set(0, Leg{Delay: 10 * time.Millisecond}, Leg{Delay: 30 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if d := roundTrip(t, c); d < 40*time.Millisecond {
		t.Errorf("round trip %v after Set(10ms, 30ms): want at least 40ms", d)
	}
	if err := l.Set(1, Leg{}, Leg{}); err == nil {
		t.Error("Set of a path that does not exist: no error")
	}
}

// TestLineSetKeepsFlight: a chunk in flight keeps the delay it arrived
// with, and one that arrives after a lowered delay does not overtake it.
func TestLineSetKeepsFlight(t *testing.T) {
	const slow = 100 * time.Millisecond
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 2 * slow}})
	c := dial(t, l.Addrs()[0])
	start := time.Now()
	if _, err := c.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // the first byte is in flight
	if err := l.Set(0, Leg{}, Leg{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte{2}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 2)
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < slow {
		t.Errorf("both bytes back after %v: the one in flight lost its %v delay", d, slow)
	}
	if got[0] != 1 || got[1] != 2 {
		t.Errorf("got %v: the later byte overtook the one in flight", got)
	}
}

// TestLineHalfClose: a client that ends its side gets every reply before
// its end of stream: the end travels behind the data, in each direction.
func TestLineHalfClose(t *testing.T) {
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 20 * time.Millisecond}})
	c := dial(t, l.Addrs()[0]).(*net.TCPConn)
	want := []byte("request, then end of stream")
	if _, err := c.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("read %q, %v; want %q then end of stream", got, err, want)
	}
}

// TestLineTargetDown: a client of a path whose target refuses sees its
// connection end.
func TestLineTargetDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	_ = ln.Close()
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: down})
	c := dial(t, l.Addrs()[0])
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %d bytes, %v: want the connection closed", n, err)
	}
}

// TestLineCloseInFlight: Close with chunks in flight returns at once and
// ends the connections; nothing in flight is delivered after it.
func TestLineCloseInFlight(t *testing.T) {
	l, err := Listen([]Pair{{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 2 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { l.Serve(context.Background()); close(done) }()
	c := dial(t, l.Addrs()[0])
	if _, err := c.Write(make([]byte, 100<<10)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // read by the line, due in a second
	start := time.Now()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v with data in flight", d)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %d bytes, %v after Close: want the connection closed", n, err)
	}
	if _, err := net.Dial("tcp", l.Addrs()[0]); err == nil {
		t.Error("the listener still accepts after Close")
	}
}

// TestLineBackPressure: a target that stops reading makes the line stop
// reading (it holds at most maxFlight per direction), and once the target
// reads again every byte arrives, in order.
func TestLineBackPressure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	want := make([]byte, 10*maxFlight) // beyond what the sockets' buffers hold besides
	for i := range want {
		want[i] = byte(i % 251)
	}
	got := make(chan []byte, 1)
	go func() {
		s, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer s.Close()
		time.Sleep(300 * time.Millisecond) // not reading: the line and the kernel buffers fill
		b, _ := io.ReadAll(s)
		got <- b
	}()
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: ln.Addr().String(), Distance: Distance{RTT: 2 * time.Millisecond}})
	c := dial(t, l.Addrs()[0]).(*net.TCPConn)
	if _, err := c.Write(want); err != nil {
		t.Fatal(err)
	}
	_ = c.CloseWrite()
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Errorf("target read %d bytes of %d, or out of order", len(b), len(want))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("target did not get the stream within 30s")
	}
}

// TestLineConnectionsApart: connections relayed at once, with jitter,
// each get exactly their own bytes back, in order.
func TestLineConnectionsApart(t *testing.T) {
	const conns, msgs = 20, 200
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: time.Millisecond, Jitter: time.Millisecond}})
	errs := make(chan error, conns)
	for i := range conns {
		c := dial(t, l.Addrs()[0])
		go func() {
			var sent []byte
			for m := range msgs {
				msg := bytes.Repeat([]byte{byte(i), byte(m)}, 1+(i*m)%700)
				sent = append(sent, msg...)
				if _, err := c.Write(msg); err != nil {
					errs <- err
					return
				}
				if m%4 == 3 { // a few in flight, then read up to here
					got := make([]byte, len(sent))
					if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, sent) {
						errs <- fmt.Errorf("connection %d, message %d: bytes differ (%v)", i, m, err)
						return
					}
					sent = sent[:0]
				}
			}
			errs <- nil
		}()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
