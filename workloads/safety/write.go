package safety

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// Outputs are where a sweep's points go beside its table: JSON (a file,
// or "-" for Stdout) and an HTML page of the curves; "" writes none.
type Outputs struct {
	JSON, HTML string
	Stdout     io.Writer
}

// Check proves, before the sweep, that o's files can be written: the JSON
// file as output.Writer's Check (not stdout or stderr, which the table and
// progress take), and the HTML page's directory exists. A failure is an
// *output.Error naming the destination ("json", "html").
func (o Outputs) Check(stderr io.Writer) error {
	if o.JSON != "" {
		if err := (output.Writer{JSON: o.JSON, Stdout: o.Stdout, Stderr: stderr}).Check(); err != nil {
			return err
		}
	}
	if o.HTML != "" {
		if _, err := os.Stat(filepath.Dir(o.HTML)); err != nil {
			return &output.Error{Dest: "html", Path: o.HTML, Err: err}
		}
	}
	return nil
}

// Write writes res where o says, each file whole or not at all (written
// aside and renamed). A failure is an *output.Error naming the
// destination ("json", "html").
func (o Outputs) Write(res Result) error {
	if o.JSON != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if o.JSON == "-" {
			if _, err := o.Stdout.Write(b); err != nil {
				return &output.Error{Dest: "json", Path: o.JSON, Err: err}
			}
		} else if err := schema.WriteFileAtomic(o.JSON, b); err != nil {
			return &output.Error{Dest: "json", Path: o.JSON, Err: err}
		}
	}
	if o.HTML != "" {
		var page bytes.Buffer
		if err := WriteHTML(&page, res); err != nil {
			return &output.Error{Dest: "html", Path: o.HTML, Err: err}
		}
		if err := schema.WriteFileAtomic(o.HTML, page.Bytes()); err != nil {
			return &output.Error{Dest: "html", Path: o.HTML, Err: err}
		}
	}
	return nil
}
