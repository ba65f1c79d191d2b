package lab

import (
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
)

// Logs are the cells' interval logs by run name, as output.Writer.Write
// takes them (cells without one are left out).
func Logs(cells []Cell) map[string]output.Logs {
	logs := make(map[string]output.Logs, len(cells))
	for _, c := range cells {
		switch {
		case c.Merged != nil:
			logs[record.LogName(c.Run)] = output.MergedLogs(c.Merged)
		case c.Hlog != nil:
			logs[record.LogName(c.Run)] = c.Hlog
		}
	}
	return logs
}

// ResolveExternal parses and checks, before Validate, the external servers
// of c's topology the backend needs and their credentials (the password
// from Topology.RedisAuth.PasswordFile or the environment): bad input is
// a *fielderr.Error naming the field under "topology".
func (c *Config) ResolveExternal() error {
	b, _ := backends.Lookup(c.Driver.Backend)
	return fielderr.Within("topology", c.Topology.ResolveExternal(c.Topology.RedisAuth.PasswordFile, b.Uses(backends.Etcd)))
}
