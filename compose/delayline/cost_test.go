package delayline

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// procCPU is the process's CPU time so far (user + system, every thread),
// from /proc/<pid>/stat; Linux ticks are 1/100 s.
func procCPU(t testing.TB, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, s)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// BenchmarkLineCPU relays b.N request/reply exchanges through a line in a
// child process, as a Redlock fleet does (conns connections, each with
// depth messages of msgSize bytes in flight, or workers each asking fan
// connections at once), to a Go echo server in this
// process, and reports the line's own CPU per message relayed one way
// (two per exchange). With depth 1 a message is one chunk each way.
func BenchmarkLineCPU(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("no /proc")
	}
	for _, c := range []struct{ conns, depth, fan int }{{40, 1, 5}, {40, 1, 1}, {8, 1, 1}, {1, 1, 1}, {5, 16, 1}} {
		name := fmt.Sprintf("conns=%d/depth=%d", c.conns, c.depth)
		if c.fan > 1 {
			name = fmt.Sprintf("conns=%d/fanout=%d", c.conns, c.fan)
		}
		b.Run(name, func(b *testing.B) {
			l := newCPULoad(b, c.conns, c.depth)
			l.fan = c.fan
			b.ResetTimer()
			line, ends := l.run(b, b.N)
			b.ReportMetric(line, "line-cpu-µs/msg")
			b.ReportMetric(ends, "ends-cpu-µs/msg")
		})
	}
}

// msgSize is a message's size in the CPU measurements: about a Redlock
// command's.
const msgSize = 48

// cpuLoad is a line in a child process at 1 ms in front of an echo server
// in this process, with conns connections to it, warmed up by a few
// exchanges of depth messages each.
type cpuLoad struct {
	p     *Process
	conns []io.ReadWriter
	depth int
	fan   int // > 1: exchanges as fan-out workers make them (fanExchange)
}

func newCPULoad(tb testing.TB, conns, depth int) *cpuLoad {
	tb.Helper()
	p, err := Start([]Pair{{Listen: "127.0.0.1:0", Target: echo(tb), Distance: Distance{RTT: time.Millisecond}}}, Options{Log: os.Stderr})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = p.Close() })
	l := &cpuLoad{p: p, conns: make([]io.ReadWriter, conns), depth: depth}
	for i := range l.conns {
		l.conns[i] = dial(tb, p.Addrs()[0])
	}
	exchange(tb, l.conns, depth, msgSize, 10*conns*depth) // connections set up, caches warm
	return l
}

// run makes n exchanges and returns the CPU per message relayed one way
// (two per exchange) of the line and of this process (the client and the
// echo server: the line's two ends), in µs.
func (l *cpuLoad) run(tb testing.TB, n int) (line, ends float64) {
	line0, ends0 := procCPU(tb, l.p.Pid()), procCPU(tb, os.Getpid())
	if l.fan > 1 {
		n = fanExchange(tb, l.conns, l.fan, msgSize, n)
	} else {
		exchange(tb, l.conns, l.depth, msgSize, n)
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(2*n) }
	return per(procCPU(tb, l.p.Pid()) - line0), per(procCPU(tb, os.Getpid()) - ends0)
}

// TestLineCostsLessThanItsEnds: the line, in its own process, spends
// less CPU per message it relays than the client and the echo server at
// its two ends spend together to send, receive and answer it (both
// measured over the same exchanges): a relay reads and writes each
// message once, as each end does, and must not add more around it than
// the ends' own runtime does. A line that woke goroutines and timers per
// chunk cost 1.3–1.8 × its ends.
func TestLineCostsLessThanItsEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU over 20 000 exchanges")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	slow.CPU(t)
	line, ends := newCPULoad(t, 40, 1).run(t, 20000)
	t.Logf("CPU per message relayed one way: line %.1f µs, its ends %.1f µs", line, ends)
	if line > ends {
		t.Errorf("the line spent %.1f µs of CPU per message, more than its ends together (%.1f µs)", line, ends)
	}
}

// TestLineAllocsPerChunk: relaying costs no allocation per chunk (the
// line, its echo target and the client all run in this process here, so
// whatever any of them allocates per exchange counts).
func TestLineAllocsPerChunk(t *testing.T) {
	const conns, n = 8, 4000
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 200 * time.Microsecond}})
	cs := make([]io.ReadWriter, conns)
	for i := range cs {
		cs[i] = dial(t, l.Addrs()[0])
	}
	exchange(t, cs, 1, msgSize, 10*conns) // buffers made, connections set up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	exchange(t, cs, 1, msgSize, n)
	runtime.ReadMemStats(&after)
	if a := after.Mallocs - before.Mallocs; a > n/20 {
		t.Errorf("%d allocations for %d exchanges (%d chunks relayed): the relay allocates per chunk", a, n, 2*n)
	}
}

// fanExchange makes about n exchanges as Redlock fan-out workers do: each
// worker owns fan of cs, writes one message to each at once, then reads
// every echo back. It returns how many it made.
func fanExchange(b testing.TB, cs []io.ReadWriter, fan, size, n int) int {
	var wg sync.WaitGroup
	workers := len(cs) / fan
	rounds := max(n/fan/workers, 1)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := cs[w*fan : (w+1)*fan]
			msg, back := make([]byte, size), make([]byte, size)
			for range rounds {
				for _, c := range mine {
					if _, err := c.Write(msg); err != nil {
						b.Error(err)
						return
					}
				}
				for _, c := range mine {
					if _, err := io.ReadFull(c, back); err != nil {
						b.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	return rounds * fan * workers
}

// exchange sends n messages spread over cs, keeping depth in flight on
// each, and reads every echo back.
func exchange(b testing.TB, cs []io.ReadWriter, depth, size, n int) {
	var wg sync.WaitGroup
	for i, c := range cs {
		share := n / len(cs)
		if i < n%len(cs) {
			share++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg, back := make([]byte, size), make([]byte, size)
			sent := 0
			for ; sent < min(depth, share); sent++ {
				if _, err := c.Write(msg); err != nil {
					b.Error(err)
					return
				}
			}
			for range share {
				if _, err := io.ReadFull(c, back); err != nil {
					b.Error(err)
					return
				}
				if sent < share {
					sent++
					if _, err := c.Write(msg); err != nil {
						b.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
