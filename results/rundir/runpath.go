package rundir

import "os"

// ReadRunPath reads a run directory's summary.json (an --out directory),
// or exactly the summary file given (with the .hlog files beside it).
func ReadRunPath(p string) (*RunDir, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return ReadRunDir(p)
	}
	return readRunFile(p)
}
