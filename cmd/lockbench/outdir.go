package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results"
)

// writeOutDir writes summary.json and config.json into dir.
func writeOutDir(dir string, sum *results.Summary, _ []measured) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := sum.WriteJSON(filepath.Join(dir, "summary.json")); err != nil {
		return err
	}
	cfg, err := json.MarshalIndent(sum.Config, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, "config.json"), append(cfg, '\n'))
}
