// Package scenario is the catalogue of named experiments from the Redlock
// debate and their judge: each scenario is a setup (a lab.Config with
// faults, a client-pause round with fencing tokens, or a Sentinel failover),
// an expected outcome, and the measured outcome set beside it.
//
// It owns the catalogue (Lookup, All), the measured outcome of a
// fault run (outcomeOf: violations from the referee, availability before,
// during and after the faults, recovery), the judge (Expect.Met), the
// client-pause fencing rounds (Redlock, etcd, ZooKeeper) and the failover
// and failover-wait scenarios. Run measures one scenario and returns its
// rows as schema.Run values whose Scenario field holds the judged outcome,
// ready for a summary.
//
// It builds on workloads/lab, compose, drivers and results; it must not
// import cmd, and nothing under drivers, multiplex, results or compose may
// import it. A Request runs scenarios as a command line gives them: the
// tables (WriteTable) and the summary JSON (WriteJSON, through results/output);
// flags and exit statuses are the CLI's.
package scenario
