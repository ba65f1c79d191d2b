package compare

// VsSequential is vsSequential for the external tests.
var VsSequential = vsSequential
