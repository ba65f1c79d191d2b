package compare

import (
	"maps"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/workloads/lab"
)

// baselines are the rows Baselines adds beside the Redlock matrix, each
// measured on the same machine, workloads and durations: every registered
// backend's (backends.Backend.Baselines), by row name.
var baselines = baselineRows()

func baselineRows() map[string]func(*lab.Config) {
	rows := map[string]func(*lab.Config){}
	for _, name := range backends.Names() {
		b, _ := backends.Lookup(name)
		for row, set := range b.Baselines {
			if _, dup := rows[row]; dup {
				panic("compare: baseline row offered twice: " + row)
			}
			rows[row] = func(c *lab.Config) { c.Driver.Backend = b.Name; set(&c.Driver) }
		}
	}
	return rows
}

// BaselineNames are the rows Config.Baselines may name, sorted.
func BaselineNames() []string { return slices.Sorted(maps.Keys(baselines)) }

// FlagHelp lists the baseline rows in --baselines' help, so a backend
// that offers one is listed by registering it.
func (cfg *Config) FlagHelp(field string) string {
	if field == "Baselines" {
		return "rows beside the matrix, on the same servers and workloads: all, or a list of " + strings.Join(BaselineNames(), ", ")
	}
	return ""
}

// withBaselines adds a cell per baseline × workload after each masters
// count's group of cells, and makes every cell of a group start the
// servers any of them needs, so one topology serves the whole group.
// Baselines ["all"] becomes every baseline.
func (cfg *Config) withBaselines(cells []Cell) ([]Cell, error) {
	if len(cfg.Baselines) == 1 && cfg.Baselines[0] == "all" {
		cfg.Baselines = BaselineNames()
	}
	if dup := duplicate(cfg.Baselines); dup != "" {
		return nil, fieldErr("Baselines", dup, "listed twice")
	}
	for _, b := range cfg.Baselines {
		if _, ok := baselines[b]; !ok {
			return nil, fieldErr("Baselines", b, "unknown (have all, %s)", strings.Join(BaselineNames(), ", "))
		}
	}
	if len(cfg.Baselines) == 0 {
		return cells, nil
	}
	var out []Cell
	for i, c := range cells {
		out = append(out, c)
		if i+1 < len(cells) && cells[i+1].Masters == c.Masters {
			continue
		}
		// last cell of this masters count's group: its baselines follow
		for _, w := range cfg.Workloads {
			for _, b := range cfg.Baselines {
				cell := c.Config
				cell.Workload.Workload = w
				cell.Driver.Client, cell.Driver.Mux = "", ""            // not Redlock: no client × mux
				cell.RTT, cell.RTTJitter, cell.RTTPerMaster = 0, 0, nil // baselines run direct
				baselines[b](&cell)
				if err := cfg.prepare(&cell, false); err != nil {
					return nil, err
				}
				out = append(out, Cell{Masters: c.Masters, Config: cell})
			}
		}
	}
	shareServers(out)
	return out, nil
}
