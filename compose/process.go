package compose

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/internal/procs"
)

// process is one server child process. It is started in its own process
// group (a terminal's Ctrl-C reaches only lockbench, which then stops its
// servers in order) and with a parent-death signal, so even a lockbench killed
// with SIGKILL leaves no server behind.
type process struct {
	name string
	argv []string
	env  []string // added to lockbench's own environment
	log  io.Writer
	cred *syscall.Credential // run as this user; nil: as lockbench

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has been waited for
}

func (p *process) start() error {
	if os.Getenv(procs.NoServersEnv) != "" {
		return fmt.Errorf("compose: start %s: refused, %s is set (servers are not started in unit tests)", p.name, procs.NoServersEnv)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return fmt.Errorf("compose: %s already running", p.name)
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if len(p.env) > 0 {
		cmd.Env = append(os.Environ(), p.env...)
	}
	// Go sets the parent-death signal after the credential change, which
	// would otherwise reset it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: p.cred}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("compose: start %s: %w", p.name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	p.cmd, p.done = cmd, done
	return nil
}

// exited reports whether the process has ended on its own.
func (p *process) exited() bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// Pid is the process id, 0 when not running.
func (p *process) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// signal sends sig to the running process.
func (p *process) signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return fmt.Errorf("compose: %s is not running", p.name)
	}
	return p.cmd.Process.Signal(sig)
}

// signalTree sends sig to the process and its children: a server that
// forks (PostgreSQL's backends, each its own process group) is stopped or
// resumed as one. Stopping, the parent goes first, so it forks no child
// the list misses.
func (p *process) signalTree(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return fmt.Errorf("compose: %s is not running", p.name)
	}
	pid := p.cmd.Process.Pid
	if sig != syscall.SIGSTOP {
		for _, c := range procs.Children(pid, "") {
			_ = syscall.Kill(c, sig)
		}
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		return err
	}
	if sig == syscall.SIGSTOP {
		for _, c := range procs.Children(pid, "") {
			_ = syscall.Kill(c, sig)
		}
	}
	return nil
}

// take hands the running process (nil when none) to the one caller that
// ends it.
func (p *process) take() (*exec.Cmd, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd, done := p.cmd, p.done
	p.cmd, p.done = nil, nil
	return cmd, done
}

// stop ends the process: SIGCONT (in case it was paused), SIGTERM, and
// SIGKILL after grace. It returns once the process has been reaped.
func (p *process) stop(grace time.Duration) error {
	cmd, done := p.take()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(syscall.SIGCONT)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
		return nil
	case <-time.After(grace):
	}
	_ = cmd.Process.Kill()
	<-done
	return nil
}

// kill ends the process with SIGKILL at once: a crash, not a shutdown.
func (p *process) kill() error {
	cmd, done := p.take()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Kill()
	<-done
	return nil
}

// killTree crashes the process and its children (SIGKILL), as a machine's
// crash would, and returns once the parent is reaped. The parent is
// stopped first, so it forks no child the list misses.
func (p *process) killTree() error {
	cmd, done := p.take()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(syscall.SIGSTOP)
	for _, c := range procs.Children(cmd.Process.Pid, "") {
		_ = syscall.Kill(c, syscall.SIGKILL)
	}
	_ = cmd.Process.Kill()
	<-done
	return nil
}

// restart starts a killed process again and waits until ready succeeds.
func (p *process) restart(ctx context.Context, ready func(context.Context) error) error {
	if err := p.start(); err != nil {
		return err
	}
	return waitTCP(ctx, p, ready)
}

// waitTCP polls until ready succeeds, the process exits, or ctx ends.
func waitTCP(ctx context.Context, p *process, ready func(context.Context) error) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		if p.exited() {
			return fmt.Errorf("compose: %s exited during start-up (last check: %v)", p.name, last)
		}
		cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		last = ready(cctx)
		cancel()
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("compose: %s not ready: %w", p.name, errors.Join(ctx.Err(), last))
		case <-tick.C:
		}
	}
}

func hostPort(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }

// removeAll removes a server's temp dir, ignoring a dir already gone.
func removeAll(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
