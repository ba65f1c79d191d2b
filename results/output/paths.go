package output

import "github.com/lockbench/lockbench/results/internal/outpath"

// The output paths of a command, checked together before anything runs
// and claimed for the whole command: the names a caller of Writer meets.
type (
	// Path is one file or directory a command writes or reads, named by
	// its destination (a flag such as "json", or "report").
	Path = outpath.Path
	// Plan is every path of one command, checked together (Plan.Check):
	// no output overwrites an input or another output.
	Plan = outpath.Plan
	// Dir is a claimed --out directory.
	Dir = outpath.Dir
	// NamedFile is one file of a run's directory and its bytes.
	NamedFile = outpath.NamedFile
)
