package delayline

import "golang.org/x/sys/unix"

// wireNice is the scheduling priority the relay's thread asks for. A wire
// does not wait for a CPU: on a machine whose cores the masters and the
// client share, a line at the default priority waits its turn behind them
// just when a fan-out's replies come due together, and its delay grows by
// that wait. Ahead of them (nice −10, which only root may set; elsewhere
// the line keeps the default) it delivers on time as long as it has a
// core's worth of CPU, and what it cannot deliver on time is the
// machine's limit, shown by the run's busy column.
const wireNice = -10

// raisePriority gives the calling thread wireNice (the nice value is a
// thread's on Linux); it fails without privilege, and the thread keeps
// its priority.
func raisePriority() error {
	return unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), wireNice)
}
