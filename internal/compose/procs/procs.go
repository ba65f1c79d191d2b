// Package procs is what compose and the tests that check it know about
// processes: whether a pid lives, a process's children, a free loopback
// port, and the switch that refuses every server start in unit tests.
// Imported by compose, internal/compose/etcdmember and internal/testenv
// (and by tests that prove no server outlives lockbench).
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

// Children lists the pids whose parent is ppid and whose command line
// contains substr.
func Children(ppid int, substr string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(ppid) {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.Contains(string(cmd), substr) {
			out = append(out, pid)
		}
	}
	return out
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
