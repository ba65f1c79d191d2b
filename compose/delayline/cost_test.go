package delayline

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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
// depth messages of msgSize bytes in flight), to a Go echo server in this
// process, and reports the line's own CPU per message relayed one way
// (two per exchange). With depth 1 a message is one chunk each way.
func BenchmarkLineCPU(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("no /proc")
	}
	for _, c := range []struct{ conns, depth int }{{40, 1}, {8, 1}, {5, 16}} {
		b.Run(fmt.Sprintf("conns=%d/depth=%d", c.conns, c.depth), func(b *testing.B) {
			benchLine(b, c.conns, c.depth)
		})
	}
}

func benchLine(b *testing.B, conns, depth int) {
	const msgSize = 48
	target := echo(b)
	p, err := Start([]Pair{{Listen: "127.0.0.1:0", Target: target, Distance: Distance{RTT: time.Millisecond}}}, Options{Log: os.Stderr, Procs: benchProcs()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	cs := make([]io.ReadWriter, conns)
	for i := range cs {
		cs[i] = dial(b, p.Addrs()[0])
	}
	exchange(b, cs, depth, msgSize, conns*depth) // connections set up, caches warm
	cpu0 := procCPU(b, p.Pid())
	b.ResetTimer()
	exchange(b, cs, depth, msgSize, b.N)
	b.StopTimer()
	cpu := procCPU(b, p.Pid()) - cpu0
	b.ReportMetric(float64(cpu.Microseconds())/float64(2*b.N), "line-cpu-µs/msg")
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

func benchProcs() int { n, _ := strconv.Atoi(os.Getenv("LINE_PROCS")); return n }
