package slow

import (
	"flag"
	"runtime"
	"strconv"
)

// parallelFlag is go test's -parallel as the test binary knows it.
const parallelFlag = "test.parallel"

// WaitingTests lets up to n tests that called t.Parallel run at once in a
// package whose parallel tests mostly wait — on servers starting, leases
// lapsing, timed faults — rather than compute: go test's default,
// GOMAXPROCS, leaves a 2-CPU machine idle while two of them sleep. Call it
// from TestMain before m.Run (it parses the flags). An explicit -parallel
// wins, and n below GOMAXPROCS changes nothing.
func WaitingTests(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	waitingTests(flag.CommandLine, n, runtime.GOMAXPROCS(0))
}

// waitingTests raises fs's -test.parallel to n unless it was given or is
// already at least n; procs is its default.
func waitingTests(fs *flag.FlagSet, n, procs int) {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == parallelFlag })
	if given || fs.Lookup(parallelFlag) == nil || n <= procs {
		return
	}
	_ = fs.Set(parallelFlag, strconv.Itoa(n))
}
