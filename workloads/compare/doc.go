// Package compare measures a matrix of cells on the same servers with the
// same durations: clients × muxes × workloads × masters counts (× added
// round trips), with baseline rows (etcd, ZooKeeper, PostgreSQL, peer
// libraries) beside it, the redis-benchmark ceiling of the same masters
// and each client library's bare floor (floor.go). It ranks the rows and
// gives each its ratio to the sequential row of its group and its
// fractions of the ceiling and the floor (gap.go).
//
// It owns the matrix (Plan: which cells, grouped by the topology they
// share), running it on a lab.Lab per group, in rounds when repeated (Run,
// RoundOrder: interruption keeps what was measured), the ratios, the
// rankings by round trip and the ceiling (running redis-benchmark and
// parsing what it prints), and how its table differs from run's (Table).
// Its flags are the tags of Config (internal/flagtag); binding them,
// printing and exit statuses are the CLI's.
//
// It may import workloads/lab, workloads, drivers, compose and results. It
// must not import cmd; nothing under drivers, multiplex, results or compose
// may import it.
package compare
