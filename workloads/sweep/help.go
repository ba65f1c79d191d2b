package sweep

// Help is how a sweep steps, stops and finds its knee, in the words of its
// flags (the tags of Config): lockbench sweep's help.
const Help = `sweep measures each --muxes strategy at increasing load on the same servers:
with --by rate (default) an open-loop schedule of --start cycles/s times
--factor each step (latency from the intended start, so queueing shows), with
--by workers a closed loop of --start workers times --factor. It stops a
strategy at the first step whose p99 of --op exceeds --slo, or that has
errors and timeouts above --max-error-rate, or violations, or (open loop)
that falls 10 % short of its rate; then bisects --refine times between the
last good and the first bad step. A first step that already fails is
followed by lower loads (divided by --factor) until one holds. The knee is
the highest good step: the sustainable load.

--out DIR writes every step's summary and .hlog files plus sweep.json; run
'lockbench report DIR' for the latency-vs-throughput plot.`
