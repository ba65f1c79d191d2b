package help

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
)

// Groups place each flag of a help in a group. A flag named in ByName is
// in that group; else a flag flagtag bound is in the group of the first
// of ByField whose prefix its field's JSON path has, so a new field's flag
// lands in its group without an entry; else it is the command's own.
type Groups struct {
	// Order are the groups in the order shown, after the command's own.
	Order []string
	// ByField are field path prefixes ("workload.") and their groups, the
	// first that matches winning.
	ByField []Prefix
	// ByName are flags placed by name, whatever field they set.
	ByName map[string]string
}

// Prefix is the group of the flags whose field paths start with Prefix.
type Prefix struct{ Prefix, Group string }

// Of is the group of f; "" is the command's own.
func (g Groups) Of(f *pflag.Flag) string {
	if group, ok := g.ByName[f.Name]; ok {
		return group
	}
	field := flagtag.Field(f)
	for _, p := range g.ByField {
		if field != "" && strings.HasPrefix(field, p.Prefix) {
			return p.Group
		}
	}
	return ""
}

// split splits fs's visible flags by group, each group a FlagSet of its
// own so its column of names is as wide as its own longest.
func (g Groups) split(fs *pflag.FlagSet) map[string]*pflag.FlagSet {
	groups := map[string]*pflag.FlagSet{}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := g.Of(f)
		if groups[name] == nil {
			groups[name] = pflag.NewFlagSet(name, pflag.ContinueOnError)
			groups[name].SortFlags = fs.SortFlags
		}
		groups[name].AddFlag(f)
	})
	return groups
}
