// Package render draws summaries for people and tools: the terminal table
// (with its notes on errors, stalls and unfinished cycles), CSV, Go
// benchmark lines, the progress line and the self-contained HTML report.
// It writes to an io.Writer and never opens files: results/output,
// the one writer of every command, decides where its output goes.
//
// It imports the results packages (schema, record, stats, procstat).
// output, the gate, compare, sweep, scenario and the CLI import it.
package render
