package compare

// Help is what a compare measures and prints, in the words of the flags of
// Config's tags: the account of lockbench compare.
const Help = `compare starts the masters once per --masters count and measures every
client × mux × workload cell on them with the same durations, one after the
other. It prints one table sorted by throughput, each row with its ratio to
the sequential row of the same client, workload and masters (and, with
--ceiling, its fraction of the redis-benchmark ceiling measured on the same
masters), and writes one summary JSON holding every run. With --repeat N
it measures the matrix in N rounds on the same servers (the order
alternating between rounds) and shows each cell's median and spread. With
--rtt 0,1ms (or 1ms±100us) it reruns the matrix with each round trip added
to every master by a delay line in a process of its own, and ranks the
cells per round trip.`
