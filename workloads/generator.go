package workloads

import (
	"maps"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
)

// keySource picks the key of each cycle for one worker. It is used by that
// worker alone.
type keySource interface {
	Next() string
}

// generator makes a worker's KeySource.
type generator interface {
	Worker(id int) keySource
}

type generatorEntry struct {
	describe string
	new      func(c Config) generator
	validate func(c Config) error
}

var generators = map[string]generatorEntry{}

// registerGenerator makes a workload available by name; called from init in
// the generator's own file.
func registerGenerator(name, describe string, validate func(Config) error, f func(Config) generator) {
	if _, dup := generators[name]; dup {
		panic("workloads: generator registered twice: " + name)
	}
	if validate == nil {
		validate = func(Config) error { return nil }
	}
	generators[name] = generatorEntry{describe: describe, new: f, validate: validate}
}

// Generators lists name → description of every registered workload.
func Generators() map[string]string {
	out := map[string]string{}
	for n, g := range generators {
		out[n] = g.describe
	}
	return out
}

// newGenerator builds the configured workload's generator.
func newGenerator(c Config) (generator, error) {
	g, ok := generators[c.Workload]
	if !ok {
		return nil, fielderr.Invalid("workload", c.Workload, "unknown (have %s)", joinNames())
	}
	return g.new(c), nil
}

func joinNames() string {
	return strings.Join(slices.Sorted(maps.Keys(generators)), ", ")
}
