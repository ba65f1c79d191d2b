package render

import (
	"fmt"

	"github.com/lockbench/lockbench/results/schema"
)

// unfinishedCell is u in a table: the count and the longest wait.
func unfinishedCell(u *schema.Unfinished) string {
	if u == nil || u.Cycles == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", u.Cycles, waitText(u.MaxWaitUS))
}

func waitText(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.1fs", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.0fms", us/1e3)
	}
	return fmt.Sprintf("%.0fµs", us)
}
