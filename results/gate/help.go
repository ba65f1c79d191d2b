package gate

// Help is what the gate checks and how it decides (and so lockbench
// gate's exit status), in the words of the flags of Options' tags:
// lockbench gate's help.
const Help = `gate reads summaries (summary.json files, or --out directories) of the
current build and checks every run in them:

  --threshold 'cycle.p99<2ms'      k6-style checks over the summary's JSON
  --threshold 'cycles_per_s>20000' fields (latencies in µs, or with a unit);
  --threshold 'violations==0'      'GLOB:expr' limits one to matching runs

  --baseline B.json                compares each run by name with the baseline:
                                   fails when cycles/s drops more than
                                   --throughput-tol or p99 of --op rises more
                                   than --latency-tol

Repeated runs of one name (several files, e.g. from --count N runs of
compare) are samples: the gate compares their medians and fails only when
the change is beyond the tolerance AND a Mann-Whitney U test finds it
significant at --alpha. With 3 runs a side no p-value can go below 0.1,
so the test needs at least 4 a side for α = 0.05 (5 is better); with fewer
the medians against the tolerance decide alone.

Refused as bad input: a NaN, infinite or negative tolerance, an --op that
is unknown or (with --baseline) that a run on either side never measured,
a summary without runs, a run with negative or non-finite values.

Exit status: 0 pass, 1 regression or threshold breach, 2 bad input.`
