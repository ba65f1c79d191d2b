package compose

import (
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// A PostgreSQL server is a postmaster and its forked children, each in its
// own process group. The postmaster dies with lockbench (its parent-death
// signal), and running children exit when they notice it is gone; but a
// stopped child (Pause, a stop fault) notices nothing and would stay
// stopped, orphaned, for ever. The cluster guard closes that gap: a small
// shell that outlives lockbench and, when lockbench is gone, SIGKILLs
// every process whose working directory is the cluster's data dir (every
// PostgreSQL process changes into it; SIGKILL ends stopped processes too),
// then removes the cluster.
//
// It waits on a pipe from lockbench: the pipe ends when lockbench exits,
// however it exits. It has no parent-death signal, ignores SIGINT, SIGHUP,
// SIGTERM and SIGQUIT and runs in its own process group, so only the end of
// the pipe ends it. Closed normally (the line "done"), it exits at once.
//
// It kills by working directory, not by a pid list: a backend forked after
// the last look would be missed by a list, and the postmaster may still be
// forking while the guard works, so it looks again until a look finds none.
const postgresGuardScript = `trap '' INT HUP TERM QUIT
IFS= read -r line
[ "$line" = done ] && exit 0
data=$1 root=$2
for try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	found=
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in
		"$data" | "$data (deleted)")
			kill -KILL "${p#/proc/}" 2>/dev/null
			found=1
			;;
		esac
	done
	[ -z "$found" ] && break
	sleep 0.1
done
rm -rf "$root"
`

// postgresGuard is the guard process of one cluster.
type postgresGuard struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{} // closed once cmd has been waited for
}

// startPostgresGuard starts the guard of the cluster in root whose data
// dir is data. Start it before the postmaster.
func startPostgresGuard(root, data string) (*postgresGuard, error) {
	cmd := exec.Command("/bin/sh", "-c", postgresGuardScript, "lockbench-postgres-guard", data, root)
	// No Pdeathsig: the guard must outlive lockbench.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("compose: postgres guard: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("compose: start postgres guard: %w", err)
	}
	g := &postgresGuard{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(g.done) }()
	return g, nil
}

// close tells the guard the cluster is stopped and waits for it to exit.
func (g *postgresGuard) close() {
	if g == nil {
		return
	}
	_, _ = io.WriteString(g.stdin, "done\n")
	_ = g.stdin.Close()
	select {
	case <-g.done:
	case <-time.After(5 * time.Second):
		_ = g.cmd.Process.Kill()
		<-g.done
	}
}
