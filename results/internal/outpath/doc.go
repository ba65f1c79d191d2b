// Package outpath is the one policy for where lockbench writes: every
// command's files (--json, report -o, --cpuprofile) and output directories
// (--out, merge -o) are checked and written here.
//
// Before anything starts, a Plan refuses an output that is one of the
// call's inputs, that another output of the call also writes, that is a
// device, a socket or a dangling symlink, or that is the process's own
// stdout. A file is written atomically (a temp file beside its target,
// renamed into place) when its target is a regular file; a symlink is
// written through, never replaced; a FIFO is opened and written.
//
// An output directory is claimed (Claim): an flock on its lock file keeps
// a second live run out, and its manifest lists every file lockbench wrote
// there with its SHA-256. A directory's result is replaced only where the
// manifest says lockbench wrote it; a file it did not write is never
// overwritten or deleted.
//
// It imports the standard library only. Errors name the destination
// (Error.Dest: "json", "out", "cpuprofile", an input's name), never a
// flag: the CLI names the flag.
package outpath
