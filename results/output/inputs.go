package output

import (
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// readReport is the HTML report of inputs: run directories (summary.json,
// .hlog files, sweep.json), summary files (a summary.json with the .hlog
// files beside it) or safety sweeps (lockbench safety --json: a plot per
// fault). An input that does not read, or reads as neither a summary nor
// a safety sweep, is an *Error of Dest "report"; an empty title is
// "lockbench report".
func readReport(title string, generated time.Time, inputs []string) (*render.Report, error) {
	if title == "" {
		title = "lockbench report"
	}
	rep := &render.Report{Title: title, Generated: generated.UTC().Truncate(time.Second)}
	for _, in := range inputs {
		if err := addReportInput(rep, in); err != nil {
			return nil, &Error{Dest: "report", Path: in, Err: err}
		}
	}
	return rep, nil
}

// addReportInput adds a directory (summary.json, .hlog files, sweep.json),
// a summary file (with the .hlog files beside it, if any) or a safety
// sweep.
func addReportInput(rep *render.Report, path string) error {
	dir := path
	if st, err := os.Stat(path); err != nil {
		return err
	} else if !st.IsDir() {
		if filepath.Base(path) != "summary.json" {
			s, safety, err := schema.ReadResult(path)
			switch {
			case err != nil:
				return err
			case safety != nil:
				rep.AddSafety(path, safety)
			default:
				rep.AddSource(path, s, nil)
			}
			return nil
		}
		dir = filepath.Dir(path)
	}
	d, err := rundir.ReadRunDir(dir)
	if err != nil {
		return err
	}
	sw, err := schema.ReadSweeps(dir)
	if err != nil {
		return err
	}
	rep.AddSource(path, d.Summary, d.Logs)
	for _, w := range sw {
		rep.Sweeps = append(rep.Sweeps, w)
	}
	return nil
}

// readMergeInputs reads the run directories (or summary files) that merge
// combines into out: an input that does not read is an *Error of Dest
// "merge", out inside an input's directory one of Dest "out".
func readMergeInputs(out string, inputs []string) ([]*rundir.RunDir, error) {
	var dirs []*rundir.RunDir
	for _, in := range inputs {
		d, err := rundir.ReadRunPath(in)
		if err != nil {
			return nil, &Error{Dest: "merge", Path: in, Err: err}
		}
		if err := outpath.Outside(out, d.Dir); err != nil {
			return nil, &Error{Dest: "out", Path: out, Err: err}
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// writeMerged writes a merged summary, its config and interval logs into
// the claimed directory d.
func writeMerged(d *outpath.Dir, sum *schema.Summary, logs map[string]record.RunLogs) error {
	l := make(map[string]Logs, len(logs))
	for name, rl := range logs {
		l[name] = MergedLogs(rl)
	}
	return Writer{Out: d.Path(), Dir: d, NoTable: true}.Write(sum, l)
}

// inputPlan is paths as a command's inputs: run directories and summary
// files (read with the .hlog files beside them), each of Dest "input".
func inputPlan(paths []string) outpath.Plan {
	p := outpath.Plan{ResultInputs: true}
	for _, in := range paths {
		ip := outpath.Path{Dest: "input", Path: in}
		if st, err := os.Stat(in); err == nil && st.IsDir() {
			p.InputDirs = append(p.InputDirs, ip)
		} else {
			p.Inputs = append(p.Inputs, ip)
		}
	}
	return p
}
