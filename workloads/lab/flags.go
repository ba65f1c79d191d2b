package lab

import (
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
)

// BindFlags registers on fs the flags of c's fields, as lockbench run has
// them (--workers, --ttl, --redis, --fault, ...), with c's values as their
// defaults, so a command of one's own takes lockbench's flags. The Set
// names the flag of a field a *fielderr.Error of Validate names.
func BindFlags(fs *pflag.FlagSet, c *Config) *flagtag.Set { return flagtag.New(fs).Bind(c) }
