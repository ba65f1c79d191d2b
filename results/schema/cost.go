package schema

// Cost is what one lock cycle cost over a run's measured window: the
// capacity planner's numbers. With cycles/s ≈ busy cores ÷ (client µs +
// server µs per cycle), server_cpu_us_per_cycle × locks/s ÷ 1e6 is the
// masters' cores a lock rate needs.
type Cost struct {
	// ClientCPUUSPerCycle is lockbench's own CPU (user + system, getrusage)
	// per cycle: driver, client library and harness.
	ClientCPUUSPerCycle float64 `json:"client_cpu_us_per_cycle"`
	// ServerCPUUSPerCycle is the masters' CPU per cycle, all masters
	// together; absent when it could not be read.
	ServerCPUUSPerCycle float64 `json:"server_cpu_us_per_cycle"`
	// ServerCPUSource says where it comes from: "proc" (local masters'
	// /proc/<pid>/stat utime+stime) or "info" (external masters' INFO cpu
	// deltas, which also count other clients' work on them); "" when none.
	ServerCPUSource string `json:"server_cpu_source,omitempty"`
	// ServerCPUError says why the masters' CPU could not be read (an INFO
	// refused, a /proc entry gone); "" when it was, or was not asked for.
	ServerCPUError string `json:"server_cpu_error,omitempty"`
	// ClientWritesPerCycle and ClientReadsPerCycle are lockbench's write
	// and read syscalls per cycle (/proc/self/io syscw, syscr): a batched
	// command shares its write.
	ClientWritesPerCycle float64 `json:"client_writes_per_cycle"`
	ClientReadsPerCycle  float64 `json:"client_reads_per_cycle"`
	// AllocsPerCycle is the process's heap allocations per cycle.
	AllocsPerCycle float64 `json:"allocs_per_cycle"`
	// DelayCPUUSPerCycle is the delay line's CPU per cycle (its own
	// process's /proc/<pid>/stat utime+stime), when the run added a
	// distance or a latency fault; it is in neither the client's nor the
	// masters' figures.
	DelayCPUUSPerCycle float64 `json:"delay_cpu_us_per_cycle,omitempty"`
	// MachineCPUBusy is the share of all the machine's cores busy over the
	// window (/proc/stat: every process, this run's and others'), 0 to 1;
	// near 1 the rate was bounded by the CPU, not by the network.
	MachineCPUBusy float64 `json:"machine_cpu_busy,omitempty"`
	// Cores is how many cores the machine has (runtime.NumCPU).
	Cores int `json:"cores,omitempty"`
}
