package output

import (
	"fmt"
	"path/filepath"
)

// Outside refuses an output directory that is an input's directory or
// lies inside it: writing there would overwrite (or add runs to) the input.
// Both are compared as absolute paths with symlinks resolved.
func Outside(out, input string) error {
	o, err := resolvePath(out)
	if err != nil {
		return err
	}
	in, err := resolvePath(input)
	if err != nil {
		return err
	}
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

// resolvePath is p made absolute with the symlinks of its existing part
// resolved (the rest, not yet made, kept as written).
func resolvePath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if parent := filepath.Dir(cur); parent == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
	}
}
