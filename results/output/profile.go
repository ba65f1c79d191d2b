package output

import (
	"os"
	"runtime/pprof"
)

// CPUProfile writes a pprof CPU profile of this process (lockbench's own
// cost, not the servers') into path until stop is called; "" profiles
// nothing. A file that cannot be created, or a profile already running,
// is an *Error of Dest "cpuprofile".
func CPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, &Error{"cpuprofile", path, err}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, &Error{"cpuprofile", path, err}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
