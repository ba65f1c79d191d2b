// Package procstat samples what a lock cycle costs: lockbench's own CPU
// (getrusage), its write and read syscalls (/proc/self/io) and heap
// allocations, the masters' CPU (/proc/<pid>/stat or a server's own
// counters) and the machine's busy share (/proc/stat), and turns two
// samples into a schema.Cost per cycle. Its memory probe reads the state
// of the host's caches and memory bus that a run's speed moves with.
//
// It imports results/schema. The lab (cost of a cell), compare (the
// ceiling's cost) and the renderers import it.
package procstat
