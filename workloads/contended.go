package workloads

import (
	"math/rand/v2"
	"strconv"

	"github.com/lockbench/lockbench/results/fielderr"
)

func init() {
	registerGenerator("contended", "K hot keys (--keys) shared by all workers, each cycle a uniformly random one",
		func(c Config) error {
			if c.Keys < 1 {
				return fielderr.Invalid("keys", c.Keys, "contended needs at least 1 key")
			}
			return nil
		},
		func(c Config) generator { return contended{keys: contendedKeys(c.Prefix, c.Keys)} })
}

// contendedKeys are the shared keys of contended workloads.
func contendedKeys(prefix string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = prefix + ":hot:" + strconv.Itoa(i)
	}
	return keys
}

type contended struct{ keys []string }

func (c contended) Worker(id int) keySource {
	return &hotKeys{keys: c.keys, rnd: rand.New(rand.NewPCG(uint64(id), 0x6c6f636b))}
}

type hotKeys struct {
	keys []string
	rnd  *rand.Rand
}

func (h *hotKeys) Next() string { return h.keys[h.rnd.IntN(len(h.keys))] }
