package delayline

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alive reports whether pid is a running process (a zombie is not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("delay line %d still running 10s after %s", pid, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestProcess: a line in a child process relays with its delay, takes a
// new one, and is gone once closed.
func TestProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	p, err := Start([]Pair{{Listen: "127.0.0.1:0", Target: echo(t), Distance: Distance{RTT: 20 * time.Millisecond}}}, Options{Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	pid := p.Pid()
	if pid == os.Getpid() || !alive(pid) {
		t.Fatalf("pid %d: not a running child", pid)
	}
	c := dial(t, p.Addrs()[0])
	// The line takes its own relay time off (relay.go): what it adds to
	// the round trip, with that relay, is what was asked.
	if d := roundTrip(t, c); d < 20*time.Millisecond-p.Relay() {
		t.Errorf("round trip %v: sooner than the 20ms asked for (less the relay time %v)", d, p.Relay())
	}
	if err := p.Set(0, Leg{}, Leg{Delay: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if d := roundTrip(t, c); d < 50*time.Millisecond-p.Relay() {
		t.Errorf("round trip %v after Set(0, 50ms): sooner than 50ms (less the relay time %v)", d, p.Relay())
	}
	if err := p.Set(3, Leg{}, Leg{}); err == nil || !strings.Contains(err.Error(), "path 4") {
		t.Errorf("Set of path 4 of 1: %v, want an error naming path 4", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, "Close")
}

// TestProcessDiesWithParent: a parent killed with SIGKILL (no Close)
// leaves no delay line behind.
func TestProcessDiesWithParent(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	parent.Stderr = os.Stderr
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = parent.Process.Kill(); _ = parent.Wait() }()
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatal("the parent exited before starting its line")
	}
	v, ok := strings.CutPrefix(sc.Text(), "pid ")
	if !ok {
		t.Fatalf("parent: %q", sc.Text())
	}
	pid, err := strconv.Atoi(v)
	if err != nil || !alive(pid) {
		t.Fatalf("line pid %q: not running (%v)", v, err)
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	waitGone(t, pid, "its parent was killed")
}
