package delayline

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// envVar marks a re-executed process as a delay line (with Arg).
const envVar = "LOCKBENCH_DELAY_LINE"

// Arg is the re-executed process's first argument; it names the process
// in ps. The pairs follow it, as ParsePair reads them.
const Arg = "lockbench-delay-line"

// ServeIfChild serves the pairs on its command line until its standard
// input ends (the parent closed it, or died) or SIGTERM, and exits the
// process; unless os.Args[1] is Arg and EnvVar is set, it returns at once.
// Call it first in main and in TestMain of any package that starts a
// delay line.
func ServeIfChild() {
	if _, ok := os.LookupEnv(envVar); !ok || len(os.Args) < 2 || os.Args[1] != Arg {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	err := serveArgs(ctx, os.Args[2:], os.Stdin, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "delay line:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func serveArgs(ctx context.Context, args []string, control io.Reader, out io.Writer) error {
	pairs := make([]Pair, len(args))
	for i, a := range args {
		p, err := ParsePair(a, Distance{})
		if err != nil {
			return err
		}
		pairs[i] = p
	}
	return Serve(ctx, pairs, control, out)
}

// Serve relays pairs until ctx ends or, when control is set, until it
// ends. It first writes one line per pair to out, "addr HOST:PORT" (the
// listener, in the pairs' order), then "ready". Each control line
// "set I UP UPJITTER DOWN DOWNJITTER" (I 1-based, durations; see Leg)
// changes path I's delays, and "relay D" takes D/2 off every delay (the
// line's own relay time per round trip, relay.go); each is answered "ok"
// or "error: ...". Without control (a line run by hand) Serve times its
// relay itself before "ready", through a path of its own to an echo
// server in this process, and says it: "relay D".
func Serve(ctx context.Context, pairs []Pair, control io.Reader, out io.Writer) error {
	all := pairs
	var probe *relayProbe
	if control == nil {
		var err error
		if probe, err = newRelayProbe(pairs); err != nil {
			return err
		}
		defer probe.close()
		all = probe.with(pairs)
	}
	l, err := Listen(all)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan struct{})
	go func() {
		defer close(served)
		l.Serve(ctx)
	}()
	addrs := l.Addrs()
	if probe != nil {
		own, err := probe.time(ctx, addrs[len(pairs)])
		if err != nil {
			cancel()
			<-served
			return err
		}
		l.SetRelay(own / 2)
		fmt.Fprintf(out, "relay %s\n", own)
	}
	for _, a := range addrs[:len(pairs)] {
		fmt.Fprintf(out, "addr %s\n", a)
	}
	fmt.Fprintln(out, "ready")
	if control != nil {
		go func() {
			defer cancel() // control closed: the parent is done, or gone
			sc := bufio.NewScanner(control)
			for sc.Scan() {
				if err := command(l, sc.Text()); err != nil {
					fmt.Fprintf(out, "error: %v\n", err)
				} else {
					fmt.Fprintln(out, "ok")
				}
			}
		}()
	}
	<-served
	return nil
}

// command runs one control line.
func command(l *Line, line string) error {
	f := strings.Fields(line)
	if len(f) == 2 && f[0] == "relay" {
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return fmt.Errorf("%q: want relay DURATION (not negative)", line)
		}
		l.SetRelay(d / 2)
		return nil
	}
	if len(f) != 6 || f[0] != "set" {
		return fmt.Errorf("%q: want set I UP UPJITTER DOWN DOWNJITTER, or relay D", line)
	}
	i, err := strconv.Atoi(f[1])
	if err != nil {
		return fmt.Errorf("%q: path %q: %w", line, f[1], err)
	}
	var d [4]time.Duration
	for k, s := range f[2:] {
		if d[k], err = time.ParseDuration(s); err != nil {
			return fmt.Errorf("%q: %w", line, err)
		}
	}
	return l.Set(i-1, Leg{d[0], d[1]}, Leg{d[2], d[3]})
}
