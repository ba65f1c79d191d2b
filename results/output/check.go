package output

import (
	"os"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/redact"
)

// Plan is w's outputs as an outpath.Plan: the JSON file ("json"), the
// output directory ("out"), and stdout and stderr when they are files. A command adds
// its inputs and other outputs before checking it.
func (w Writer) Plan() outpath.Plan {
	var p outpath.Plan
	if w.JSON != "" {
		p.Files = append(p.Files, outpath.Path{Dest: "json", Path: w.JSON})
	}
	if w.Out != "" {
		p.Dirs = append(p.Dirs, outpath.Path{Dest: "out", Path: w.Out})
	}
	stdout := w.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	if f, ok := redact.File(stdout); ok {
		p.Stdout = f
	}
	p.Stderr, _ = redact.File(w.Stderr)
	return p
}

// Check proves, before anything is measured, that w's JSON file and Out
// directory can be written and are distinct (outpath.Plan's Check): an
// *Error of Dest "json" or "out" says which cannot.
func (w Writer) Check() error { return w.Plan().Check() }

// ClaimOut claims w's Out for the whole command (outpath.Claim), so that no
// other lockbench writes it meanwhile; w.Dir is set and release lets it go.
// Without an Out it claims nothing.
func (w *Writer) ClaimOut() (release func(), err error) {
	if w.Out == "" {
		return func() {}, nil
	}
	d, err := outpath.Claim(w.Out)
	if err != nil {
		return nil, &Error{Dest: "out", Path: w.Out, Err: err}
	}
	w.Dir = d
	return d.Release, nil
}
