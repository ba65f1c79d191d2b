package delayline

// Help is what a delay line does, for a command that serves one: the
// account of lockbench delay.
const Help = `delay relays each LISTEN address to its TARGET and delays every chunk by half the
round trip in each direction. Chunks in flight overlap (a chunk's delivery
does not wait for the delay of those ahead of it), order is kept (with
jitter, a chunk never overtakes the one ahead of it) and no byte is dropped,
so a pipelined connection pays the distance once per round trip, as on a
longer wire. It first times its own relaying (an extra loopback crossing and
a wake-up each way) and takes it off the delays, so a round trip grows by
RTT and not by that too; it prints that time ("relay D"), each listener's
address and "ready", then relays until interrupted. A port of 0 picks a
free one.`
