package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results"
)

// writeOutDir writes summary.json, config.json and each cell's interval logs
// (<run>.<op>.hlog) into dir. The logs go first, so a summary.json always
// has its logs beside it.
func writeOutDir(dir string, sum *results.Summary, cells []measured) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, c := range cells {
		if c.Hlog == nil {
			continue
		}
		if _, err := c.Hlog.WriteDir(dir, c.Run.Name); err != nil {
			return err
		}
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
