package output

// The readers and writers behind WriteReport and MergeRequest, for the
// external tests.
var (
	ReadReport      = readReport
	ReadMergeInputs = readMergeInputs
	WriteMerged     = writeMerged
)
