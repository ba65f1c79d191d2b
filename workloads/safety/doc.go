// Package safety measures how safe a lock is as a rate: for a fault of a
// given magnitude relative to the lock's TTL, how many of a contended
// workload's grants broke mutual exclusion, per million grants, with an
// exact 95 % interval, with and without fencing tokens checked by the
// protected resource.
//
// A point is one (backend, fault magnitude, fencing) triple measured on
// real servers (workloads/lab) until its grant budget is spent. Every
// critical section writes to a fenced resource (Resource) at its entry and
// at its exit; the fault stops the holder between the two, as a GC pause
// or a page fault would. The resource knows the true order of the grants
// and counts a write as stale when a later grant's write already landed:
// the lost update fencing tokens are meant to refuse. With fencing on it
// refuses every write whose token is older than the newest it has seen;
// with fencing off it accepts everything. The mutual-exclusion referee
// (results/referee) judges the same grants for overlapping validity
// windows, the lock service's own failures.
//
// The yes/no experiments of the Redlock debate stay in workloads/scenario;
// this package turns one of them (client-pause) into a curve.
package safety
