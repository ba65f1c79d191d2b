package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
)

// Flag groups of the help, in the order they are shown. A command's own
// flags (compare's matrix, gate's thresholds) come first, under its name.
const (
	groupWorkload = "Workload"
	groupServers  = "Servers"
	groupBackend  = "Backend"
	groupTuning   = "Client tuning"
	groupFaults   = "Faults"
	groupOutput   = "Output"
)

var groupOrder = []string{groupWorkload, groupServers, groupBackend, groupTuning, groupFaults, groupOutput}

// groupByField places a flag by the JSON path of the field it sets: the
// first prefix that matches. The config's layout is the grouping, so a new
// field's flag lands in its group without an entry here.
var groupByField = []struct{ prefix, group string }{
	{"workload.", groupWorkload},
	{"topology.", groupServers},
	{"driver.client_tuning.", groupTuning},
	{"driver.multiplex.", groupTuning},
	{"driver.", groupBackend},
	{"faults", groupFaults},
}

// outputFlags are the flags, of any command, that say where and how results
// are written and shown.
var outputFlags = map[string]bool{
	"json": true, "out": true, "format": true, "wide": true, "quiet": true, "metrics-addr": true,
	"cpuprofile": true, "allow-failures": true, "force": true, "title": true, "help": true, "version": true,
}

// flagGroup is the help group of f; "" is the command's own.
func flagGroup(f *pflag.Flag) string {
	if outputFlags[f.Name] {
		return groupOutput
	}
	field := flagtag.Field(f)
	for _, g := range groupByField {
		if strings.HasPrefix(field, g.prefix) {
			return g.group
		}
	}
	return ""
}

// groupFlags splits fs's visible flags by group, each group a FlagSet of its
// own so its column of names is as wide as its own longest.
func groupFlags(fs *pflag.FlagSet) map[string]*pflag.FlagSet {
	groups := map[string]*pflag.FlagSet{}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := flagGroup(f)
		if groups[g] == nil {
			groups[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			groups[g].SortFlags = fs.SortFlags
		}
		groups[g].AddFlag(f)
	})
	return groups
}
