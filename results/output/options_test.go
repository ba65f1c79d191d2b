package output_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
)

// TestOptionsValidate: a known format passes (empty is the table), any
// other is a field error of Format naming the value.
func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		format, want string // want: the format after; "" for an error
		err          string
		json         string
	}{
		{format: "", want: output.Table},
		{format: "table", want: output.Table},
		{format: "csv", want: "csv"},
		{format: "gobench", want: "gobench"},
		{format: "xml", err: `Format "xml": want one of table, csv, gobench`},
		{format: "Table", err: `Format "Table": want one of table, csv, gobench`},
		{format: "", json: "-", want: output.Table},
		{format: "csv", json: "s.json", want: "csv"},
		{format: "csv", json: "-", err: "Format csv: stdout is taken (JSON - writes the JSON there)"},
	} {
		o := output.Options{Format: c.format, JSON: c.json}
		err := o.Validate()
		var fe *fielderr.Error
		switch {
		case c.err != "" && (!errors.As(err, &fe) || fe.Field != "Format" || err.Error() != c.err):
			t.Errorf("%q: error %v, want a field error %q", c.format, err, c.err)
		case c.err == "" && (err != nil || o.Format != c.want):
			t.Errorf("%q: format %q, error %v; want %q", c.format, o.Format, err, c.want)
		}
	}
	if d := output.DefaultOptions(); d.Format != output.Table || d.JSON != "" || d.Out != "" || d.Quiet || d.MetricsAddr != "" {
		t.Errorf("DefaultOptions %+v: want the table and nothing else", d)
	}
}

// TestOptionsWriter: the writer carries the options' format, files and
// table width, and prints on the stdout given.
func TestOptionsWriter(t *testing.T) {
	var b bytes.Buffer
	o := output.Options{Format: "csv", JSON: "s.json", Out: "dir", Wide: true, Quiet: true, MetricsAddr: ":1"}
	w := o.Writer(&b)
	if w.Stdout != &b || w.Format != "csv" || w.JSON != "s.json" || w.Out != "dir" || !w.TableOptions.Wide || w.NoTable {
		t.Errorf("writer %+v from %+v", w, o)
	}
}

// TestOptionsLog: quiet logs nowhere, else on the stderr given.
func TestOptionsLog(t *testing.T) {
	var b bytes.Buffer
	if got := (output.Options{}).Log(&b); got != io.Writer(&b) {
		t.Errorf("Log: %v, want the stderr given", got)
	}
	if got := (output.Options{Quiet: true}).Log(&b); got != nil {
		t.Errorf("quiet Log: %v, want nil", got)
	}
}

// TestOptionsServeMetrics: no address serves nothing; a bad or taken one
// is a field error of MetricsAddr naming it; a good one is served and
// told on stderr unless quiet.
func TestOptionsServeMetrics(t *testing.T) {
	var b bytes.Buffer
	e, stop, err := output.Options{}.ServeMetrics(&b)
	if e != nil || err != nil || b.Len() != 0 {
		t.Fatalf("no address: exporter %v, error %v, stderr %q", e, err, b.String())
	}
	stop()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, addr := range []string{"nope:bad:addr", taken.Addr().String()} {
		_, _, err := output.Options{MetricsAddr: addr}.ServeMetrics(&b)
		var fe *fielderr.Error
		if !errors.As(err, &fe) || fe.Field != "MetricsAddr" || !strings.HasPrefix(err.Error(), `MetricsAddr "`+addr+`": `) {
			t.Errorf("%s: error %v, want a field error of MetricsAddr naming it", addr, err)
		}
	}
	for _, quiet := range []bool{false, true} {
		b.Reset()
		e, stop, err := output.Options{MetricsAddr: "127.0.0.1:0", Quiet: quiet}.ServeMetrics(&b)
		if err != nil || e == nil {
			t.Fatalf("quiet %v: exporter %v, error %v", quiet, e, err)
		}
		stop()
		if told := strings.HasPrefix(b.String(), "metrics at http://127.0.0.1:"); told == quiet {
			t.Errorf("quiet %v: stderr %q", quiet, b.String())
		}
	}
}
