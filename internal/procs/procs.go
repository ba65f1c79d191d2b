// Package procs is what compose and the tests that check it know about
// processes: whether a pid lives, a process's children, a free loopback
// port, and the switch that refuses every server start in unit tests.
package procs

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// NoServersEnv, when set to anything, makes every server start fail: the
// unit-test tier (go test -short, make test-unit) sets it, so a test that
// would start a server there fails instead of running slowly.
const NoServersEnv = "LOCKBENCH_NO_SERVERS"

// Alive reports whether pid is a live process (not gone, not a zombie).
// Tests use it to prove no server outlives lockbench.
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// Field 3, after the parenthesised command name, is the state.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}

// Pids lists the running processes for which match holds, given each
// pid and its /proc directory.
func Pids(match func(pid int, dir string) bool) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && match(pid, "/proc/"+e.Name()) {
			out = append(out, pid)
		}
	}
	return out
}

// Children lists the pids whose parent is ppid and whose command line
// contains substr.
func Children(ppid int, substr string) []int {
	return Pids(func(_ int, dir string) bool {
		b, err := os.ReadFile(dir + "/stat")
		if err != nil {
			return false
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			return false
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(ppid) {
			return false
		}
		cmd, _ := os.ReadFile(dir + "/cmdline")
		return strings.Contains(string(cmd), substr)
	})
}

// FreePort asks the kernel for a free loopback TCP port. Another process may
// take it before the server binds; callers retry on a failed start.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("compose: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
