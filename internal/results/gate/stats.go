package gate

import (
	"math"
	"sort"

	"github.com/lockbench/lockbench/results/stats"
)

// median of xs (NaN for none); xs is not modified.
func median(xs []float64) float64 { return stats.Median(xs) }

// mannWhitney is the two-sided Mann-Whitney U test of whether samples a and
// b come from the same distribution. It returns U of a and the p-value:
// exact for small samples without ties, the normal approximation with tie
// correction otherwise. Note how little small samples can show: with 3 runs
// a side the smallest possible p is 0.1, with 4 it is 0.029, with 5 0.008.
func mannWhitney(a, b []float64) (u, p float64) {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 0, 1
	}
	type obs struct {
		v    float64
		inA  bool
		rank float64
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v: v, inA: true})
	}
	for _, v := range b {
		all = append(all, obs{v: v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	ties := false
	var tieTerm float64 // Σ (t³ − t) over tie groups
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for k := i; k < j; k++ {
			all[k].rank = r
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	var ra float64
	for _, o := range all {
		if o.inA {
			ra += o.rank
		}
	}
	u = ra - float64(n1*(n1+1))/2
	if !ties && n1+n2 <= 40 {
		return u, exactP(n1, n2, u)
	}
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1))))
	if sigma == 0 {
		return u, 1 // every value equal: no evidence of a difference
	}
	z := (math.Abs(u-mu) - 0.5) / sigma // continuity correction
	if z < 0 {
		z = 0
	}
	return u, math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactP is the two-sided p of U under the null (uDist).
func exactP(n1, n2 int, u float64) float64 {
	var le, ge float64
	for x, p := range uDist(n1, n2) {
		if float64(x) <= u {
			le += p
		}
		if float64(x) >= u {
			ge += p
		}
	}
	return math.Min(1, 2*math.Min(le, ge))
}

// uDist is the distribution of U under the null for samples of n1 and n2
// without ties, by counting the arrangements of ranks:
// c[i][j][u] = c[i-1][j][u-j] + c[i][j-1][u]. dist[u] is P(U = u).
func uDist(n1, n2 int) []float64 {
	counts := make([][][]float64, n1+1)
	for i := range counts {
		counts[i] = make([][]float64, n2+1)
		for j := range counts[i] {
			d := make([]float64, i*j+1)
			switch {
			case i == 0 || j == 0:
				d[0] = 1
			default:
				for x := range d {
					if x >= j {
						d[x] += counts[i-1][j][x-j]
					}
					if x < len(counts[i][j-1]) {
						d[x] += counts[i][j-1][x]
					}
				}
			}
			counts[i][j] = d
		}
	}
	dist := counts[n1][n2]
	var total float64
	for _, c := range dist {
		total += c
	}
	for x := range dist {
		dist[x] /= total
	}
	return dist
}

// MinP is the smallest two-sided p-value the exact U test can give for
// samples of n1 and n2: 2 / C(n1+n2, n1).
func MinP(n1, n2 int) float64 {
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}
