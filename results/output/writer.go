package output

import (
	"encoding/json"
	"io"
	"os"
	"sort"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// Logs are one run's interval log files, named as they are written into
// an output directory; *record.IntervalLog is one, MergedLogs another.
type Logs interface {
	Files(run string) ([]outpath.NamedFile, error)
}

// Writer is where one command's result goes. The zero value writes the
// runs table to os.Stdout and no file.
type Writer struct {
	Stdout io.Writer // nil: os.Stdout
	Format string    // a registered Format's name; "": Table
	// Stderr is the command's stderr, which, when it is a file, no output
	// may be (Plan); Write writes nothing there.
	Stderr io.Writer
	// NoTable: nothing on stdout in the Table format (merge -q).
	NoTable bool
	// JSON is the summary file; "-" is stdout instead of the table.
	JSON string
	// Out is a directory: summary.json, config.json, the interval logs and
	// Files. It holds one result at a time: a result lockbench wrote there
	// earlier is replaced (its logs and extra files too); a file it did not
	// write is never overwritten or removed (outpath.Claim).
	Out string
	// Dir is Out claimed for the whole command (ClaimOut); nil: Write
	// claims Out for the write.
	Dir *outpath.Dir
	// TableOptions are the runs table's columns and width (MaxWidth 0: a
	// terminal's width when stdout is one, else render.TableWidth).
	TableOptions render.TableOptions
	// Print replaces the runs table (a scenario prints its own).
	Print func(io.Writer, []schema.Run) error
	// Below is printed under the table (compare's ratios, a sweep's knees).
	Below func(io.Writer)
	// Files are extra JSON files written into Out (a sweep's sweep.json).
	Files map[string]any
}

// Error is a path that cannot be used or written, naming its destination:
// "json", "out", "cpuprofile", or an input ("report", "merge", "input").
type Error = outpath.Error

// Write prints sum on stdout, then writes the JSON file and the output
// directory. logs are the runs' interval logs by run name (nil entries
// and runs without logs are skipped).
func (w Writer) Write(sum *schema.Summary, logs map[string]Logs) error {
	stdout := w.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	if err := w.print(stdout, sum); err != nil {
		return err
	}
	if w.JSON != "" {
		if err := writeJSON(stdout, w.JSON, sum); err != nil {
			return &Error{Dest: "json", Path: w.JSON, Err: err}
		}
	}
	if w.Out != "" {
		if err := w.writeDir(sum, logs); err != nil {
			return &Error{Dest: "out", Path: w.Out, Err: err}
		}
	}
	return nil
}

func (w Writer) print(stdout io.Writer, sum *schema.Summary) error {
	if f, ok := formats[w.Format]; ok && f.Print != nil {
		return f.Print(stdout, sum)
	}
	switch {
	case w.JSON == "-" || w.NoTable:
		return nil
	case w.Print != nil:
		if err := w.Print(stdout, sum.Runs); err != nil {
			return err
		}
	default:
		if err := render.WriteTable(stdout, sum.Runs, fitTerminal(stdout, w.TableOptions)); err != nil {
			return err
		}
	}
	if w.Below != nil {
		w.Below(stdout)
	}
	return nil
}

// writeJSON writes the summary to path, or to stdout for "-".
func writeJSON(stdout io.Writer, path string, sum *schema.Summary) error {
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

// writeDir makes the directory's result, in this order: the interval logs
// (so a summary.json always has its logs beside it), the extra files,
// summary.json and config.json. What an earlier result lockbench wrote
// there and this one does not replace is removed.
func (w Writer) writeDir(sum *schema.Summary, logs map[string]Logs) error {
	d := w.Dir
	if d == nil {
		var err error
		if d, err = outpath.Claim(w.Out); err != nil {
			return err
		}
		defer d.Release()
	}
	var files []outpath.NamedFile
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if logs[n] == nil {
			continue
		}
		fs, err := logs[n].Files(n)
		if err != nil {
			return err
		}
		files = append(files, fs...)
	}
	extra := make([]string, 0, len(w.Files))
	for n := range w.Files {
		extra = append(extra, n)
	}
	sort.Strings(extra)
	for _, n := range extra {
		b, err := indented(w.Files[n])
		if err != nil {
			return err
		}
		files = append(files, outpath.NamedFile{Name: n, Data: b})
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"summary.json", sum}, {"config.json", sum.Config}} {
		b, err := indented(f.v)
		if err != nil {
			return err
		}
		files = append(files, outpath.NamedFile{Name: f.name, Data: b})
	}
	return d.Replace(files)
}

func indented(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return append(b, '\n'), err
}

// MergedLogs are a merged run's interval logs (histograms per op), as merge
// read them.
type MergedLogs record.RunLogs

// Files are one <run>.<op>.hlog per op.
func (m MergedLogs) Files(run string) ([]outpath.NamedFile, error) {
	ops := make([]string, 0, len(m))
	for op := range m {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var files []outpath.NamedFile
	for _, op := range ops {
		b, err := rundir.EncodeHlog(m[op])
		if err != nil {
			return nil, err
		}
		files = append(files, outpath.NamedFile{Name: record.Slug(run) + "." + op + ".hlog", Data: b})
	}
	return files, nil
}
