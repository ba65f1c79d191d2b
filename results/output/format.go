package output

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// Table is the default format: the command's own view on stdout (the runs
// table, compare's ranks and answers, sweep's knees).
const Table = "table"

// A Format is one way of printing a command's result on stdout in place of
// its own view (Table). A format is added by a file that registers it
// (RegisterFormat in an init): --format takes its name, Options.Validate
// accepts it, its help joins --format's.
type Format struct {
	Name string
	Help string // a few words for --format's help
	// Print writes sum to stdout; it is all stdout holds.
	Print func(stdout io.Writer, sum *schema.Summary) error
}

var formats = map[string]Format{Table: {Name: Table, Help: "the command's own view, fitted to the width"}}

// RegisterFormat makes f a value of --format. It panics on a second format
// of one name (a programming error, found at start-up).
func RegisterFormat(f Format) {
	if _, dup := formats[f.Name]; dup || f.Print == nil {
		panic(fmt.Sprintf("output: format %q registered twice or without Print", f.Name))
	}
	formats[f.Name] = f
}

// formatNames are the registered formats, the default first.
func formatNames() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		if n != Table {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{Table}, names...)
}

// FormatHelp is --format's help: every registered format with its words.
func FormatHelp() string {
	var parts []string
	for _, n := range formatNames() {
		parts = append(parts, fmt.Sprintf("%s (%s)", n, formats[n].Help))
	}
	return "stdout: " + strings.Join(parts, " | ")
}

// OwnView reports whether w prints the command's own view on stdout (the
// Table format, stdout not taken by --json -): what a command prints below
// its table (answers, rankings) goes there only then.
func (w Writer) OwnView() bool {
	return (w.Format == "" || w.Format == Table) && w.JSON != "-"
}
