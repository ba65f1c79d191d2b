// Package backends is the registry of lock backends and a run's choice of
// one: the Backend descriptor with Register, Lookup and Names; the Spec
// (backend, client and mux, the Redlock, strategy and client-library
// settings every backend shares, and each backend's own settings under its
// ConfigKey, read by Settings and changed by Update); the Endpoints a
// Locker is opened on; and Open.
//
// It imports no backend's package. Each backend registers itself from its
// own package (a backend.go whose init calls Register), and
// drivers/backends/all imports every one of them; a program that opens
// backends by name imports all once (workloads/lab does). Adding a backend
// is its package plus one line in all.go: nothing here names it.
//
// The Redlock backend alone is registered here. It is lockbench's own
// algorithm (drivers/redlock) over the client adapters (drivers/goredis,
// drivers/rueidis) and the multiplexing strategies, configured by Spec's
// shared fields (Client, Mux, Multiplex, Tuning, Redlock) rather than by
// settings of its own; registered from drivers/redlock it would import this
// package, which imports drivers/redlock for Spec.Redlock: a cycle.
package backends
