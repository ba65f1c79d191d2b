package delayline

import (
	"bytes"
	"testing"
)

// fill reads s into f as one chunk due at due.
func fill(f *flight, s string, due int64) {
	n := copy(f.space(), s)
	f.add(n, due)
}

// TestFlight: what is due is the prefix of chunks whose time has come,
// in order; a chunk stamped earlier than the one ahead of it (jitter, or
// a delay lowered by Set) waits for it; a partial write leaves the rest.
func TestFlight(t *testing.T) {
	for _, c := range []struct {
		name   string
		chunks []string
		dues   []int64
		now    int64
		wrote  int // bytes consumed of what is due
		due    string
		after  string // due at the end of time, after the write
		next   int64  // next due after the write; 0: empty
	}{
		{"none due", []string{"ab", "cd"}, []int64{10, 20}, 5, 0, "", "abcd", 10},
		{"prefix due", []string{"ab", "cd", "ef"}, []int64{10, 20, 30}, 20, 4, "abcd", "ef", 30},
		{"all due", []string{"ab", "cd"}, []int64{10, 20}, 99, 4, "abcd", "", 0},
		{"later stamp waits", []string{"ab", "cd"}, []int64{30, 10}, 20, 0, "", "abcd", 30},
		{"later stamp goes with it", []string{"ab", "cd", "ef"}, []int64{30, 10, 40}, 30, 4, "abcd", "ef", 40},
		{"partial write", []string{"abc", "de"}, []int64{10, 20}, 20, 2, "abcde", "cde", 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f flight
			for i, s := range c.chunks {
				fill(&f, s, c.dues[i])
			}
			if got := string(f.due(c.now)); got != c.due {
				t.Fatalf("due at %d: %q, want %q", c.now, got, c.due)
			}
			f.consume(c.wrote)
			if got := string(f.due(1 << 62)); got != c.after {
				t.Errorf("left: %q, want %q", got, c.after)
			}
			if f.empty() != (c.next == 0) || (c.next != 0 && f.next() != c.next) {
				t.Errorf("empty %v, next due %d; want %d", f.empty(), f.next(), c.next)
			}
		})
	}
}

// TestFlightReuse: a direction that empties and refills, or streams
// without ever emptying, keeps its buffers: no growth beyond what is in
// flight at once, every byte in order; beyond maxFlight there is no
// room (the source waits).
func TestFlightReuse(t *testing.T) {
	var f flight
	var sent, got bytes.Buffer
	msg := bytes.Repeat([]byte("0123456789abcdef"), 64) // 1 KiB
	for i := range 10000 {
		b := f.space()
		n := copy(b, msg[:1+i%len(msg)])
		sent.Write(b[:n])
		f.add(n, int64(i))
		if i%3 != 0 { // never empties: keeps about two chunks in flight
			d := f.due(int64(i - 1))
			got.Write(d)
			f.consume(len(d))
		}
	}
	got.Write(f.due(1 << 62))
	if !bytes.Equal(got.Bytes(), sent.Bytes()) {
		t.Fatal("bytes out differ from bytes in")
	}
	if len(f.buf) > 4*minFlight || cap(f.chunks) > 1024 {
		t.Errorf("buffer %d bytes, %d chunk slots after a stream of at most ~3 KiB in flight: not reused", len(f.buf), cap(f.chunks))
	}
	var full flight
	for len(full.space()) > 0 {
		full.add(len(full.space()), 0)
	}
	if full.w != maxFlight {
		t.Errorf("full at %d bytes in flight, want %d", full.w, maxFlight)
	}
}
