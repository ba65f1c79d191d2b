package main

import (
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/results/output"
)

// flagError names the flag of a failed write or read: --json, --out or
// --cpuprofile, other destinations (a command's inputs) as they are.
func flagError(err error) error {
	var e *output.Error
	if errors.As(err, &e) && (e.Dest == "json" || e.Dest == "out" || e.Dest == "cpuprofile") {
		return fmt.Errorf("--%s %q: %w", e.Dest, e.Path, e.Err)
	}
	return err
}

// checkOutputFile is output.CheckFile as a usage error naming the flag; an
// unset flag ("") passes.
func checkOutputFile(flag, path string) error {
	if err := output.CheckFile(path); err != nil && path != "" {
		return usagef("%s %q: %v", flag, path, err)
	}
	return nil
}
