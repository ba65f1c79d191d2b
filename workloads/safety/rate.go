package safety

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the two-sided level of every interval here.
const Confidence = 0.95

// perMillion scales a rate per grant to one per 10⁶ grants.
const perMillion = 1e6

// Rate is a count of events among grants, as a rate per 10⁶ grants with
// its 95 % interval. For events > 0 the interval is Garwood's exact
// Poisson interval (chi-square quantiles); for none it is [0, 3/grants]
// (the rule of three): a zero is only as strong as its grants.
type Rate struct {
	Grants     int64   `json:"grants"`
	Events     int64   `json:"events"`
	PerMillion float64 `json:"per_million"`
	Lo         float64 `json:"per_million_lo"`
	Hi         float64 `json:"per_million_hi"`
}

// RateOf is events among grants as a Rate; with no grants every figure
// is 0 (nothing was measured, not "safe").
func RateOf(events, grants int64) Rate {
	r := Rate{Grants: grants, Events: events}
	if grants <= 0 {
		return r
	}
	n := float64(grants)
	r.PerMillion = float64(events) / n * perMillion
	if events == 0 {
		r.Hi = RuleOfThree(grants) * perMillion
		return r
	}
	lo, hi := PoissonInterval(events, Confidence)
	r.Lo, r.Hi = lo/n*perMillion, hi/n*perMillion
	return r
}

// PoissonInterval is the exact (Garwood) two-sided interval of a Poisson
// mean given k observed events at level conf:
// [χ²((1−conf)/2; 2k)/2, χ²((1+conf)/2; 2k+2)/2], the lower bound 0 for k = 0.
func PoissonInterval(k int64, conf float64) (lo, hi float64) {
	alpha := 1 - conf
	if k > 0 {
		lo = distuv.ChiSquared{K: float64(2 * k)}.Quantile(alpha/2) / 2
	}
	hi = distuv.ChiSquared{K: float64(2*k + 2)}.Quantile(1-alpha/2) / 2
	return lo, hi
}

// RuleOfThree is the approximate 95 % upper bound of a per-grant rate
// when none of n grants had the event: 3/n (−ln 0.05 ≈ 3).
func RuleOfThree(n int64) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	return 3 / float64(n)
}

// GrantsForBound is how many grants without an event it takes for the
// rule of three to bound the rate at perMillionBound per 10⁶ grants:
// 3 × 10⁶ for a bound of 1 per 10⁶.
func GrantsForBound(perMillionBound float64) int64 {
	if !(perMillionBound > 0) {
		return math.MaxInt64
	}
	return int64(math.Ceil(3 * perMillion / perMillionBound))
}
