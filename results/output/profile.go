package output

import (
	"runtime/pprof"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

// CPUProfile writes a pprof CPU profile of this process (lockbench's own
// cost, not the servers') into path until stop is called; "" profiles
// nothing. The file is written as every output is (outpath.Create: a temp
// file renamed onto it at stop). A file that cannot be created, or a
// profile already running, is an *Error of Dest "cpuprofile".
func CPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := outpath.Create(path)
	if err != nil {
		return nil, &Error{Dest: "cpuprofile", Path: path, Err: err}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, &Error{Dest: "cpuprofile", Path: path, Err: err}
	}
	return func() { pprof.StopCPUProfile(); _ = f.Commit() }, nil
}
