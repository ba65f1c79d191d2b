package multiplex

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Options tune the strategies that batch; others ignore them.
type Options struct {
	Batch       int           `json:"batch" flag:"batch" help:"pipeline mux: most commands per master per flush"`                                                                                              // Pipeline: most commands per flush
	FlushDelay  time.Duration `json:"flush_delay" flag:"flush-delay" help:"pipeline mux: wait this long for more commands before a flush"`                                                                     // Pipeline: wait this long for more commands before flushing
	MaxInFlight int           `json:"max_in_flight" flag:"max-in-flight" help:"pipeline mux: batches in flight per master (0: adaptive, 1 while the master answers within 200µs, else up to 8; n: at most n)"` // Pipeline: most batches in flight per master
}

// Factory builds a Strategy over nodes.
type Factory func(nodes []Node, opt Options) (Strategy, error)

var factories = map[string]Factory{}

// Register makes a strategy available by name. It is called from init.
func Register(name string, f Factory) {
	if _, dup := factories[name]; dup {
		panic("multiplex: strategy registered twice: " + name)
	}
	factories[name] = f
}

// Names lists the registered strategies, sorted.
func Names() []string {
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New builds the named strategy over nodes.
func New(name string, nodes []Node, opt Options) (Strategy, error) {
	f, ok := factories[name]
	if !ok {
		return nil, fmt.Errorf("multiplex: unknown strategy %q (have %s)", name, strings.Join(Names(), ", "))
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("multiplex: %s needs at least one node", name)
	}
	return f(nodes, opt)
}
