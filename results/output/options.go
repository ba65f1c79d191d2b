package output

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/render"
)

// Options are how a measuring command shows and writes its result, as a
// command line gives them: stdout's format and table width, the JSON file,
// the output directory, the progress line and the Prometheus address. None
// is part of what was measured, so none is written into the result
// (json:"-"). Tagged fields are flags (internal/flagtag); errors name the
// Go field ("Format", "MetricsAddr"), the CLI names the flag.
type Options struct {
	JSON        string `json:"-" flag:"json" value:"FILE" help:"write the summary JSON to FILE (- for stdout)"`
	Out         string `json:"-" flag:"out" value:"DIR" help:"write summary.json, config.json and .hlog interval logs into DIR"`
	Quiet       bool   `json:"-" flag:"quiet" short:"q" help:"stdout only: no progress, phases or warnings on stderr (errors still end it)"`
	Verbose     bool   `json:"-" flag:"verbose" short:"v" help:"off a terminal, a progress line per cell and per second (default: one per twentieth of the cells)"`
	Format      string `json:"-" flag:"format" help:"stdout's format: table, or another registered format (FormatHelp lists them)"`
	MetricsAddr string `json:"-" flag:"metrics-addr" value:"HOST:PORT" help:"serve Prometheus metrics at http://HOST:PORT/metrics while measuring (e.g. :9464)"`
	Wide        bool   `json:"-" flag:"wide" help:"table: every column (default: the essentials, fitted to 100 columns or the terminal)"`
}

// DefaultOptions print the runs table, write no file and serve nothing.
func DefaultOptions() Options { return Options{Format: Table} }

// Validate checks the format (an empty one becomes Table), which only the
// table shares with JSON on stdout: a *FieldError of Format. Whether the
// files can be written is Writer's Check.
func (o *Options) Validate() error {
	if o.Format == "" {
		o.Format = Table
	}
	if _, ok := formats[o.Format]; !ok {
		return fielderr.Invalid("Format", o.Format, "want one of %s", strings.Join(formatNames(), ", "))
	}
	if o.Format != Table && o.JSON == "-" {
		return &fielderr.Error{Field: "Format", Value: o.Format, Err: errors.New("stdout is taken"), Hint: "%s - writes the JSON there", HintField: "JSON"}
	}
	return nil
}

// Writer is the one Writer of a command's result from o, printing on
// stdout (nil: os.Stdout).
func (o Options) Writer(stdout io.Writer) Writer {
	return Writer{Stdout: stdout, Format: o.Format, JSON: o.JSON, Out: o.Out, TableOptions: render.TableOptions{Wide: o.Wide}}
}

// Log is where a command's phases, fault events and warnings go: stderr,
// or nowhere (nil) when quiet.
func (o Options) Log(stderr io.Writer) io.Writer {
	if o.Quiet {
		return nil
	}
	return stderr
}

// ServeMetrics serves MetricsAddr (nothing when empty: a nil Exporter and
// a stop that does nothing) and, unless quiet, says where on stderr. A bad
// or taken address is a *FieldError of MetricsAddr.
func (o Options) ServeMetrics(stderr io.Writer) (e *prom.Exporter, stop func(), err error) {
	e, srv, err := prom.Serve(o.MetricsAddr)
	if err != nil {
		return nil, nil, &fielderr.Error{Field: "MetricsAddr", Value: fmt.Sprintf("%q", o.MetricsAddr), Err: err}
	}
	if e != nil && !o.Quiet {
		fmt.Fprintf(stderr, "metrics at http://%s/metrics\n", srv.Addr())
	}
	return e, srv.Stop, nil
}
