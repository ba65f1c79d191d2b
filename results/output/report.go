package output

import (
	"bytes"
	"io"
	"os"
	"time"

	"github.com/lockbench/lockbench/results/redact"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

// ReportHelp is what the HTML report of readReport shows: lockbench
// report's help.
const ReportHelp = `report renders one or more --out directories (or summary JSON files) as a
single HTML file that needs no network to view: a strategy comparison, the
latency distribution of every op on HdrHistogram's 1/(1-p) percentile axis,
throughput and p99 over time (from the .hlog files), the capacity sweep
when the directory holds one, and the config and versions of every input.
A safety sweep's JSON file (what lockbench safety writes) is drawn beside
them as its own HTML page draws it: a plot per fault of violations per 10⁶
grants against the fault ÷ TTL, with its config and plan line.`

// CheckReport refuses, as an *Error of Dest "out", a report file that
// cannot be written or that is one of inputs' files (a summary or interval
// log read), stdout or stderr (outpath.Plan).
func CheckReport(stdout io.Writer, out string, inputs []string) error {
	p := inputPlan(inputs)
	p.Files = []outpath.Path{{Dest: "out", Path: out}}
	p.Stdout, _ = redact.File(stdout)
	p.Stderr = os.Stderr
	return p.Check()
}

// WriteReport renders the report of inputs (readReport) as one HTML page
// and writes it to the file out (outpath.WriteFile: atomically, through
// symlinks), or to stdout for "-". An input that does not read is an
// *Error of Dest "report", a failed write to out one of Dest "out".
func WriteReport(stdout io.Writer, out, title string, generated time.Time, inputs []string) error {
	if err := CheckReport(stdout, out, inputs); err != nil {
		return err
	}
	rep, err := readReport(title, generated, inputs)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		return err
	}
	if out == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := outpath.WriteFile(out, buf.Bytes()); err != nil {
		return &Error{Dest: "out", Path: out, Err: err}
	}
	return nil
}
