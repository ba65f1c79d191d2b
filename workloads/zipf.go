package workloads

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/lockbench/lockbench/results/fielderr"
)

func init() {
	registerGenerator("zipf", "--keys keys shared by all workers, key i drawn with weight 1/(i+1)^--zipf-s (a few hot, a long cold tail)",
		func(c Config) error {
			switch {
			case c.Keys < 1:
				return fielderr.Invalid("keys", c.Keys, "zipf needs at least 1 key")
			case c.Keys > 10_000_000:
				return fielderr.Invalid("keys", c.Keys, "zipf supports at most 10000000 keys")
			case !(c.ZipfS > 0) || math.IsInf(c.ZipfS, 0):
				return fielderr.Invalid("zipf_s", c.ZipfS, "must be a positive number")
			}
			return nil
		},
		func(c Config) generator {
			return zipf{keys: contendedKeys(c.Prefix, c.Keys), cdf: zipfCDF(c.Keys, c.ZipfS)}
		})
}

// zipfCDF is the cumulative distribution of ranks 0..n-1 with weight
// 1/(i+1)^s. Any s > 0 works (math/rand's Zipf needs s > 1).
func zipfCDF(n int, s float64) []float64 {
	cdf := make([]float64, n)
	var sum float64
	for i := range cdf {
		sum += math.Pow(float64(i+1), -s)
		cdf[i] = sum
	}
	for i := range cdf {
		cdf[i] /= sum
	}
	return cdf
}

type zipf struct {
	keys []string
	cdf  []float64 // shared, read-only
}

func (z zipf) Worker(id int) keySource {
	return &zipfKeys{z: z, rnd: rand.New(rand.NewPCG(uint64(id), 0x7a697066))}
}

type zipfKeys struct {
	z   zipf
	rnd *rand.Rand
}

func (k *zipfKeys) Next() string {
	u := k.rnd.Float64()
	i := sort.SearchFloat64s(k.z.cdf, u)
	if i >= len(k.z.keys) {
		i = len(k.z.keys) - 1
	}
	return k.z.keys[i]
}
