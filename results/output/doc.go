// Package output is the one writer of every lockbench command's result:
// the runs table (or CSV, or Go benchmark lines) on stdout, the summary
// JSON file, and an output directory (summary.json, config.json, one
// interval log per run and op, a command's own extra files). run, compare,
// sweep, scenario and merge all write through Writer, so the files, their
// atomic writes and the pruning of a reused directory are the same
// everywhere.
//
// It also reads what report and merge take in (ReadReport,
// ReadMergeInputs). It imports results and results/capacity only; it knows
// no flags: errors name the destination (Error.Dest), the CLI names the
// flag.
package output
