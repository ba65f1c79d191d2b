package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/prom"
)

// Request is a scenario run as a command line gives it: the scenario's
// name ("all": every one) is its argument, the tagged fields are its flags
// (internal/flagtag).
type Request struct {
	Name        string
	List        bool   `flag:"list" help:"list the scenarios and what each expects (as without NAME)"`
	MetricsAddr string `flag:"metrics-addr" value:"HOST:PORT" help:"serve Prometheus metrics at http://HOST:PORT/metrics while measuring"`
	JSON        string `flag:"json" value:"FILE" help:"write the scenarios' summary JSON (runs with their fault events, timelines and outcomes) to FILE"`
}

// Pick is the scenarios r names (Pick), once it is known that the JSON
// file can be written and is not the command's stdout or stderr, which
// carry the tables and the phases (output.Writer.Check; else a
// *fielderr.Error of JSON).
func (r Request) Pick(stdout, stderr io.Writer) ([]Scenario, error) {
	list, err := pick(r.Name)
	if err != nil {
		return nil, err
	}
	if r.JSON != "" {
		if err := (output.Writer{JSON: r.JSON, Stdout: stdout, Stderr: stderr}).Check(); err != nil {
			var e *output.Error
			if errors.As(err, &e) {
				err = e.Err
			}
			return nil, &fielderr.Error{Field: "JSON", Value: fmt.Sprintf("%q", r.JSON), Err: err}
		}
	}
	return list, nil
}

// Run measures list with run (Run, or a fake), each scenario's start told
// on stderr and its counters exported to metrics (nil: none), printing a
// table per kind (tablesTo) on stdout, or on stderr when the JSON takes
// stdout. Once every scenario ran it writes
// the JSON file, when asked, with every row, also those whose outcome
// differs from the expected; differ names those scenarios. A failed write
// is an *output.Error of Dest "json".
func (r Request) Run(ctx context.Context, stdout, stderr io.Writer, list []Scenario, run runFunc, metrics *prom.Exporter) (differ []string, err error) {
	tables := stdout
	if r.JSON == "-" {
		tables = stderr // stdout is the JSON alone
	}
	started := time.Now()
	runs, differ, err := runAll(ctx, list, Observers{Log: stderr, Metrics: metrics}, run, tablesTo(tables))
	if err != nil {
		return nil, err
	}
	if r.JSON != "" {
		if err := WriteJSON(stdout, r.JSON, started, list, runs); err != nil {
			return differ, err
		}
	}
	return differ, nil
}
