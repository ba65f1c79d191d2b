package delayline

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Process is a delay line in a child process: the current program
// re-executed (see ServeIfChild). It dies with its parent: its standard
// input is a pipe from the parent, which ends when the parent exits
// however it exits, and on Linux a parent-death signal kills it too.
type Process struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
	addrs []string
	relay time.Duration // the line's own relay time per round trip, taken off every delay
	done  chan struct{} // closed once the child has been waited for

	mu sync.Mutex // one control exchange at a time
}

// Options say which program runs the line and where its errors go.
type Options struct {
	// Bin is the program re-executed as the line; default
	// os.Executable(). It must call ServeIfChild first in main (lockbench
	// does) or TestMain (the tests that start a line do).
	Bin string
	// Log receives the child's standard error; default discarded.
	Log io.Writer
	// Procs is the line's GOMAXPROCS; default 2: the relay is one event
	// loop that keeps one processor through its waits (see Line), the
	// other runs the control reader.
	Procs int
}

// startTimeout bounds the child's start, from exec to "ready".
const startTimeout = 10 * time.Second

// Start runs a delay line for pairs in a child process and returns once
// every listener is open and the line's own relay time is timed and taken
// off its delays (relay.go): from this process, through one more path of
// the line to an echo server here, as the client's commands will go.
func Start(pairs []Pair, opt Options) (_ *Process, err error) {
	bin := opt.Bin
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("delay line: %w", err)
		}
	}
	probe, err := newRelayProbe(pairs)
	if err != nil {
		return nil, fmt.Errorf("delay line: %w", err)
	}
	defer probe.close()
	args := []string{Arg}
	for _, p := range probe.with(pairs) {
		if err := p.Distance.Check(); err != nil {
			return nil, fmt.Errorf("delay line: %s: %w", p.Target, err)
		}
		args = append(args, p.String())
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), envVar+"=1")
	cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(cmp.Or(opt.Procs, 2)))
	cmd.Stderr = opt.Log
	cmd.SysProcAttr = sysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("delay line: start %s: %w", bin, err)
	}
	p := &Process{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout), done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	defer func() {
		if err != nil {
			_ = p.Close()
		}
	}()
	ready := make(chan error, 1)
	go func() { ready <- p.readAddrs(len(pairs) + 1) }()
	select {
	case err := <-ready:
		if err != nil {
			return nil, err
		}
	case <-time.After(startTimeout):
		return nil, fmt.Errorf("delay line: not ready after %v", startTimeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	own, err := probe.time(ctx, p.addrs[len(pairs)])
	if err != nil {
		return nil, fmt.Errorf("delay line: %w", err)
	}
	p.addrs = p.addrs[:len(pairs)]
	if err := p.control(fmt.Sprintf("relay %s", own)); err != nil {
		return nil, err
	}
	p.relay = own
	return p, nil
}

// readAddrs reads the child's "addr" lines up to "ready".
func (p *Process) readAddrs(n int) error {
	for p.out.Scan() {
		line := p.out.Text()
		if line == "ready" {
			if len(p.addrs) != n {
				return fmt.Errorf("delay line: %d listeners for %d pairs", len(p.addrs), n)
			}
			return nil
		}
		if a, ok := strings.CutPrefix(line, "addr "); ok {
			p.addrs = append(p.addrs, a)
		}

	}
	return errors.New("delay line: exited before it was ready (see its log)")
}

// Addrs are the listeners' addresses, in the pairs' order.
func (p *Process) Addrs() []string { return append([]string(nil), p.addrs...) }

// Relay is the line's own relay time per round trip, measured as it
// started and taken off every delay (relay.go): what a round trip through
// the line with no delay costs beyond a direct one.
func (p *Process) Relay() time.Duration { return p.relay }

// Pid is the child's process id: its CPU is /proc/<pid>/stat's.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Set changes path i's (0-based) delays: up on requests, down on
// replies. Chunks in flight keep theirs.
func (p *Process) Set(i int, up, down Leg) error {
	if i < 0 || i >= len(p.addrs) {
		return fmt.Errorf("delay line: path %d of %d", i+1, len(p.addrs))
	}
	return p.control(fmt.Sprintf("set %d %s %s %s %s", i+1, up.Delay, up.Jitter, down.Delay, down.Jitter))
}

// control sends the child one control line and reads its answer.
func (p *Process) control(line string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := fmt.Fprintln(p.stdin, line); err != nil {
		return fmt.Errorf("delay line: %w", err)
	}
	if !p.out.Scan() {
		return errors.New("delay line: exited")
	}
	if msg, ok := strings.CutPrefix(p.out.Text(), "error: "); ok {
		return fmt.Errorf("delay line: %s", msg)
	}
	return nil
}

// closeTimeout is how long Close waits for the child to exit after its
// input closed, before it kills it.
const closeTimeout = 5 * time.Second

// Close ends the child (its input closes; killed if it has not exited
// within closeTimeout) and waits for it.
func (p *Process) Close() error {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(closeTimeout):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	return nil
}
