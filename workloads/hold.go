package workloads

import (
	"math/rand/v2"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

// holdDists names the hold-time distributions, each with mean --hold.
var holdDists = map[string]string{
	"fixed":   "every hold lasts exactly --hold",
	"uniform": "uniform in [0, 2×--hold): mean --hold",
	"exp":     "exponential with mean --hold (capped at 20×), the memoryless service time of queueing models",
}

// holdSampler draws one cycle's hold time from the worker's own rand.
type holdSampler func(r *rand.Rand) time.Duration

// expCap bounds an exponential hold so one draw cannot outlast the run.
const expCap = 20

func newHoldSampler(dist string, mean time.Duration) (holdSampler, error) {
	switch dist {
	case "", "fixed":
		return func(*rand.Rand) time.Duration { return mean }, nil
	case "uniform":
		if mean <= 0 {
			return func(*rand.Rand) time.Duration { return 0 }, nil
		}
		return func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(2 * int64(mean))) }, nil
	case "exp":
		return func(r *rand.Rand) time.Duration {
			return time.Duration(min(r.ExpFloat64(), expCap) * float64(mean))
		}, nil
	}
	return nil, fielderr.Invalid("hold_dist", dist, "want fixed, uniform or exp")
}
