// Package output is the one writer of every lockbench command's result:
// the runs table (or CSV, or Go benchmark lines) on stdout, the summary
// JSON file, and an output directory (summary.json, config.json, one
// interval log per run and op, a command's own extra files). run, compare,
// sweep, scenario and merge all write through Writer, and every path is
// checked and written by results/internal/outpath's one policy (conflicts refused
// before anything starts, atomic writes through symlinks, an output
// directory owned through its manifest and lock), the same everywhere.
//
// Options are a measuring command's output settings (format, files,
// progress, Prometheus address) with their checks and the Writer built
// from them; CPUProfile profiles lockbench itself.
//
// It also reads what report and merge take in and writes what they make
// (WriteReport, MergeRequest). It imports results,
// results/schema, results/internal/outpath and results/prom only; it binds no flags: its request
// types carry flag tags (internal/flagtag), its errors name the
// destination (Error.Dest) or the field (*fielderr.Error), and the CLI
// names the flag.
package output
