package gate

// Help is what the gate checks and how it decides (and so lockbench
// gate's exit status), in the words of the flags of Options' tags:
// lockbench gate's help.
const Help = `gate reads summaries (summary.json files, or --out directories) of the
current build and checks every run in them:

  --threshold 'cycle.p99<2ms'      k6-style checks over the summary's JSON
  --threshold 'error_rate<0.01'    fields and CSV columns (latencies in µs,
  --threshold 'violations==0'      or with a unit); 'GLOB:expr' limits one

  --baseline B.json (repeatable)   compares each run by name with the
                                   baseline's runs of that name

Against a baseline it judges, per run: client and server CPU µs per cycle
(--cpu-tol), writes, reads, allocs and attempts per cycle (--count-tol),
cycles/s (--throughput-tol) and the p99 of --op (--latency-tol), plus any
--metric NAME[=TOL]. Runs of one name are samples: each metric's effect is
the Hodges-Lehmann shift with its interval, and two one-sided
Mann-Whitney tests, Holm-corrected over every metric judged at --alpha,
give its verdict:
  pass          shown within tolerance
  regressed     shown worse, by more than the tolerance
  inconclusive  neither (too few or too noisy samples)
One run a side decides nothing; 6 or more a side usually do.

--until-decided measures both sides itself: it runs --base-cmd and
--head-cmd (each writes one summary to $LOCKBENCH_SUMMARY) in interleaved
rounds, judging after 8, 11, 15, 20, 27 and 36 rounds (α split over the
looks; each round's base and head runs are a pair, compared with the
Wilcoxon signed-rank test, so load shared by a pair cancels) until every
metric is decided or --budget is spent.

A baseline from another environment (cores, CPU model, kernel, server
versions, config) is named above the table; --strict-env refuses it.

Refused as bad input: a NaN, infinite or negative tolerance or threshold
value, an --op that is unknown or (with --baseline) that a run never
measured, a summary of an unknown schema version, without runs, with a run
twice or a run that measured nothing, a run with negative or non-finite
values or with counts missing or not adding up, the same run on both sides.

Exit status: 0 pass, 1 regressed (or a threshold breached), 2 bad input,
3 inconclusive.`
