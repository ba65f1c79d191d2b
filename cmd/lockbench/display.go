package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
)

// bindDisplay registers what is shown while and after measuring: the
// Prometheus endpoint and the table's width.
func bindDisplay(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringVar(&c.MetricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://HOST:PORT/metrics while measuring (e.g. :9464)")
	fs.BoolVar(&c.Wide, "wide", false, "table: every column (default: the essentials, fitted to 100 columns or the terminal)")
}

// startMetrics listens on --metrics-addr (nothing when unset) and gives c
// the exporter its cells report to. A bad or taken address is bad input,
// found before any server starts.
func startMetrics(c *RunConfig) (stop func(), err error) {
	if c.MetricsAddr == "" {
		return func() {}, nil
	}
	if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
		return nil, usagef("--metrics-addr %q: want HOST:PORT (%v)", c.MetricsAddr, err)
	}
	e := prom.New()
	srv, err := prom.Listen(c.MetricsAddr, e)
	if err != nil {
		return nil, usagef("--metrics-addr %q: %v", c.MetricsAddr, err)
	}
	c.metrics = e
	if !c.Quiet {
		fmt.Fprintf(c.errOut(), "metrics at http://%s/metrics\n", srv.Addr())
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Close(ctx)
	}, nil
}

// tableOptions are the table's columns and width: the terminal's width when
// stdout is one, else results.TableWidth.
func tableOptions(c RunConfig) results.TableOptions {
	opt := results.TableOptions{Wide: c.Wide}
	if f, ok := c.out().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			opt.MaxWidth = w
		}
	}
	return opt
}

// upTopology is compose.Up with its phase on stderr: "starting 5 redis
// masters… ready (120 ms)". On a terminal the first half shows while the
// servers start; elsewhere (logs) the line is written whole once they are
// up, so a failure leaves only its one error line.
func upTopology(ctx context.Context, spec compose.Spec, quiet bool, stderr io.Writer) (*compose.Topology, error) {
	if quiet {
		return compose.Up(ctx, spec)
	}
	tty := isTerminal(stderr)
	if tty {
		fmt.Fprintf(stderr, "%s… ", describeTopology(spec))
	}
	start := time.Now()
	topo, err := compose.Up(ctx, spec)
	switch {
	case err != nil && tty:
		fmt.Fprint(stderr, "\r\033[K")
	case err != nil:
	case tty:
		fmt.Fprintf(stderr, "ready (%d ms)\n", time.Since(start).Milliseconds())
	default:
		fmt.Fprintf(stderr, "%s… ready (%d ms)\n", describeTopology(spec), time.Since(start).Milliseconds())
	}
	return topo, err
}

// isTerminal: is w a terminal (not a file, pipe or test buffer)?
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func describeTopology(spec compose.Spec) string {
	var s string
	switch {
	case spec.NoRedis:
	case len(spec.RedisAddrs) > 0:
		s = fmt.Sprintf("dialing %d redis masters", len(spec.RedisAddrs))
	default:
		s = fmt.Sprintf("starting %d redis masters", spec.Redis.Masters)
	}
	if spec.NeedsEtcd {
		if s != "" {
			s += " and "
		}
		if len(spec.EtcdAddrs) > 0 {
			s += fmt.Sprintf("dialing %d etcd members", len(spec.EtcdAddrs))
		} else {
			s += fmt.Sprintf("starting %d etcd members", spec.Etcd.Members)
		}
	}
	if s == "" {
		s = "starting"
	}
	return s
}

// metricMasterErrors is the error log's running per-master counts, named as
// the errors block under the table names them.
func metricMasterErrors(log drivers.ErrorReporter, addrs []string, backend string) []prom.MasterErrors {
	rep := log.Errors()
	out := make([]prom.MasterErrors, 0, len(rep))
	for _, m := range rep {
		addr := backend
		if _, capture := log.(errorCapture); !capture && m.Master < len(addrs) {
			addr = addrs[m.Master]
		}
		out = append(out, prom.MasterErrors{Index: m.Master + 1, Addr: addr, Errors: m.Errors})
	}
	return out
}
