package sweep

// Help is how a sweep steps, stops and finds its knee, in the words of the
// flags of Config's tags: the account of lockbench sweep.
const Help = `sweep measures each --muxes strategy at increasing load on the same servers:
with --by rate (default) an open-loop schedule of --start cycles/s times
--factor each step, run by --workers (latency from the intended start, so
queueing shows: the knee is an arrival rate you can offer); with --by
workers a closed loop of --start workers times --factor (latency from the
actual start: the knee is a concurrency, its cycles/s what it achieved,
more than an open loop sustains at the same SLO).

A step fails when its p99 of --op exceeds --slo, or its errors and timeouts
exceed --max-error-rate, or it has violations, or (open loop) it falls 10 %
short of its rate. The climb measures each step once; a step that fails is
measured --repeat times and judged on the medians (p99, cycles/s), so one
noisy measurement does not end the climb. The step below a confirmed
failure is confirmed the same way (a failing one steps down until one
holds); then --refine bisection steps, each judged on --repeat
measurements. A step that fails on p99 alone ends the climb only when the
step above it fails too: one burst of host noise at a low step does not.
The knee is the highest load that held. Then the step below it, the knee
and the first bad step are measured again in --interval-rounds interleaved
rounds: each round's knee is the highest of them that met the SLO, and
knee_interval spans where the rounds put it (wider, with the reason, where
a step's rounds disagree): where a rerun's knee lands. safe_rate is the
highest load at which every measurement met the SLO: the rate to promise.
With --by workers the Universal Scalability Law is fitted to the measured
throughput (λ, σ, κ, the peak concurrency, R²); --target-rate R turns the
measured CPU per cycle into the cores a rate of R needs. Every measurement
uses keys of its own.

--out DIR writes every step's summary and .hlog files plus sweep.json; run
'lockbench report DIR' for the latency-vs-throughput plot.`
