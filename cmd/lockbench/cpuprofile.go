package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile profiles lockbench itself (not the servers) into path
// until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile %q: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %q: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
