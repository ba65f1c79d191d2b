package workloads

import (
	"maps"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// KeySource picks the key of each cycle for one worker. It is used by that
// worker alone.
type KeySource interface {
	Next() string
}

// Generator makes a worker's KeySource.
type Generator interface {
	Worker(id int) KeySource
}

type generatorEntry struct {
	describe string
	new      func(c Config) Generator
	validate func(c Config) error
}

var generators = map[string]generatorEntry{}

// RegisterGenerator makes a workload available by name; called from init in
// the generator's own file.
func RegisterGenerator(name, describe string, validate func(Config) error, f func(Config) Generator) {
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

// NewGenerator builds the configured workload's generator.
func NewGenerator(c Config) (Generator, error) {
	g, ok := generators[c.Workload]
	if !ok {
		return nil, results.Invalid("workload", c.Workload, "unknown (have %s)", joinNames())
	}
	return g.new(c), nil
}

func joinNames() string {
	return strings.Join(slices.Sorted(maps.Keys(generators)), ", ")
}
