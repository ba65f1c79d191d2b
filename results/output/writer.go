package output

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// Formats of stdout.
const (
	Table   = "table"   // the runs table, fitted to the width
	CSV     = "csv"     // every column of every run
	GoBench = "gobench" // Go benchmark lines, for benchstat and CI actions
)

// Logs writes one run's interval logs into dir and names the files it
// wrote; *results.IntervalLog is one, MergedLogs another.
type Logs interface {
	WriteDir(dir, run string) ([]string, error)
}

// Writer is where one command's result goes. The zero value writes the
// runs table to os.Stdout and no file.
type Writer struct {
	Stdout io.Writer // nil: os.Stdout
	Format string    // Table (""), CSV or GoBench
	// NoTable: nothing on stdout in the Table format (merge -q).
	NoTable bool
	// JSON is the summary file; "-" is stdout instead of the table.
	JSON string
	// Out is a directory: summary.json, config.json, the interval logs and
	// Files. A directory being reused loses the logs and extra files of an
	// earlier result, so it holds one result at a time.
	Out string
	// TableOptions are the runs table's columns and width (MaxWidth 0: a
	// terminal's width when stdout is one, else results.TableWidth).
	TableOptions results.TableOptions
	// Print replaces the runs table (a scenario prints its own).
	Print func(io.Writer, []results.Run) error
	// Below is printed under the table (compare's ratios, a sweep's knees).
	Below func(io.Writer)
	// Files are extra JSON files written into Out (a sweep's sweep.json).
	Files map[string]any
}

// Error is a failed write, naming its destination: "json" or "out".
type Error struct {
	Dest, Path string
	Err        error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %q: %v", e.Dest, e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Write prints sum on stdout, then writes the JSON file and the output
// directory. logs are the runs' interval logs by run name (nil entries
// and runs without logs are skipped).
func (w Writer) Write(sum *results.Summary, logs map[string]Logs) error {
	stdout := w.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	if err := w.print(stdout, sum); err != nil {
		return err
	}
	if w.JSON != "" {
		if err := writeJSON(stdout, w.JSON, sum); err != nil {
			return &Error{"json", w.JSON, err}
		}
	}
	if w.Out != "" {
		if err := w.writeDir(sum, logs); err != nil {
			return &Error{"out", w.Out, err}
		}
	}
	return nil
}

func (w Writer) print(stdout io.Writer, sum *results.Summary) error {
	switch {
	case w.Format == GoBench:
		return results.WriteGoBench(stdout, sum)
	case w.Format == CSV:
		return results.WriteCSV(stdout, sum.Runs)
	case w.JSON == "-" || w.NoTable:
		return nil
	case w.Print != nil:
		if err := w.Print(stdout, sum.Runs); err != nil {
			return err
		}
	default:
		if err := results.WriteTable(stdout, sum.Runs, fitTerminal(stdout, w.TableOptions)); err != nil {
			return err
		}
	}
	if w.Below != nil {
		w.Below(stdout)
	}
	return nil
}

// writeJSON writes the summary to path, or to stdout for "-".
func writeJSON(stdout io.Writer, path string, sum *results.Summary) error {
	if path != "-" {
		return sum.WriteJSON(path)
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(b, '\n'))
	return err
}

// writeDir writes the directory: interval logs first, so a summary.json
// always has its logs beside it; then what an earlier result left and this
// one did not replace is removed; then the extra files, summary.json and
// config.json.
func (w Writer) writeDir(sum *results.Summary, logs map[string]Logs) error {
	dir := w.Out
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if logs[n] == nil {
			continue
		}
		files, err := logs[n].WriteDir(dir, n)
		if err != nil {
			return err
		}
		for _, f := range files {
			keep[f] = true
		}
	}
	if err := prune(dir, keep); err != nil {
		return err
	}
	for name, v := range w.Files {
		if err := writeIndented(filepath.Join(dir, name), v); err != nil {
			return err
		}
	}
	if err := sum.WriteJSON(filepath.Join(dir, "summary.json")); err != nil {
		return err
	}
	return writeIndented(filepath.Join(dir, "config.json"), sum.Config)
}

func writeIndented(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, append(b, '\n'))
}

// extraFiles are the files besides summary.json and config.json that a
// command may write into an output directory.
var extraFiles = []string{"sweep.json"}

// prune removes from a directory being reused the artefacts of an earlier
// result that this one did not replace: interval logs not in keep, extra
// files (the command writes its own after), and temp files a killed writer
// left. Files lockbench does not write are left alone.
func prune(dir string, keep map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || keep[n] {
			continue
		}
		if strings.HasSuffix(n, ".hlog") || isExtra(n) || isTemp(n) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil && !os.IsNotExist(err) {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

func isExtra(n string) bool {
	for _, x := range extraFiles {
		if n == x {
			return true
		}
	}
	return false
}

// isTemp matches results.WriteFileAtomic's temp names (".NAME.*") of the
// files lockbench writes into an output directory.
func isTemp(n string) bool {
	for _, base := range append([]string{"summary.json", "config.json"}, extraFiles...) {
		if strings.HasPrefix(n, "."+base+".") {
			return true
		}
	}
	return strings.HasPrefix(n, ".") && strings.Contains(n, ".hlog.")
}

// MergedLogs are a merged run's interval logs (histograms per op), as merge
// read them.
type MergedLogs results.RunLogs

// WriteDir writes one <run>.<op>.hlog per op.
func (m MergedLogs) WriteDir(dir, run string) ([]string, error) {
	ops := make([]string, 0, len(m))
	for op := range m {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var names []string
	for _, op := range ops {
		name := results.Slug(run) + "." + op + ".hlog"
		if err := results.WriteHlog(filepath.Join(dir, name), m[op]); err != nil {
			return names, err
		}
		names = append(names, name)
	}
	return names, nil
}
