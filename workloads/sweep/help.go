package sweep

// Help is how a sweep steps, stops and finds its knee, in the words of its
// flags (the tags of Config): lockbench sweep's help.
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
measurements. The knee is the highest load that held; the capacity lies
between it and the lowest load confirmed bad, both printed with the knee's
spread over its measurements. Every measurement uses keys of its own.

--out DIR writes every step's summary and .hlog files plus sweep.json; run
'lockbench report DIR' for the latency-vs-throughput plot.`
