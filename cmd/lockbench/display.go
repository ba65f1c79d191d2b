package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
)

// startMetrics listens on --metrics-addr (nothing when unset) and gives c
// the exporter its cells report to. A bad or taken address is bad input,
// found before any server starts.
func startMetrics(c *RunConfig) (stop func(), err error) {
	if c.MetricsAddr == "" {
		return func() {}, nil
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

// isTerminal: is w a terminal (not a file, pipe or test buffer)?
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
