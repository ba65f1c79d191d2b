package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results"
)

// writeOutDir writes summary.json, config.json and each cell's interval logs
// (<run>.<op>.hlog) into dir, and removes what an earlier run left there
// that this one did not replace (pruneOutDir). The logs go first, so a
// summary.json always has its logs beside it. cells nil: the caller (merge)
// wrote the logs of sum's runs itself.
func writeOutDir(dir string, sum *results.Summary, cells []measured) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, c := range cells {
		if c.Hlog == nil {
			continue
		}
		names, err := c.Hlog.WriteDir(dir, c.Run.Name)
		if err != nil {
			return err
		}
		for _, n := range names {
			keep[n] = true
		}
	}
	if cells == nil {
		keptLogs(dir, sum, keep)
	}
	if err := pruneOutDir(dir, keep); err != nil {
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
