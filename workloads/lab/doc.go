// Package lab is lockbench's orchestration core as a library: servers up
// (a Lab over a compose.Topology), one cell measured on them (Measure:
// faults, proxies, cost sampling, errors per master, metrics, progress), and
// the facts a summary records about the servers. compare, sweep and the
// scenarios are built on it; the CLI binds flags to its Config and prints.
// Each flag is a tag beside its field, in Config and the structs it holds
// (internal/flagtag), and each backend's settings bind the same way from
// its own package; BindFlags gives a command of one's own the same flags.
// It imports drivers/backends/all, so every backend lockbench ships can be
// opened by name wherever the lab is used.
//
// It owns the cell: the Config that serialises into every result, the
// fault run (proxies, schedule, availability timeline, recoveries) and the
// per-cycle cost window. It may import workloads (and workloads/measure),
// drivers, compose, results and multiplex; nothing under drivers,
// multiplex, results or compose may import it, and it never imports cmd.
package lab
