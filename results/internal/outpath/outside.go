package outpath

import (
	"fmt"
	"path/filepath"
)

// Outside refuses an output directory that is an input's directory or
// lies inside it: writing there would overwrite (or add runs to) the input.
// Both are compared as absolute paths with symlinks resolved.
func Outside(out, input string) error {
	o, in := resolved(out), resolved(input)
	rel, err := filepath.Rel(in, o)
	switch {
	case err != nil:
	case rel == ".":
		return fmt.Errorf("is the directory of input %q; merge would overwrite it: give a new directory", input)
	case filepath.IsLocal(rel):
		return fmt.Errorf("is inside the directory of input %q; give a directory outside every input", input)
	}
	return nil
}
