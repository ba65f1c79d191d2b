package referee

import (
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// Report sums up; call it once the workers have stopped.
func (r *Referee) Report() schema.RefereeReport {
	rep := schema.RefereeReport{
		Overlaps: r.overlaps.Load(), FenceBackwards: r.fenceBack.Load(), StaleOverlaps: r.stale.Load(),
		BusyToSplit: r.toSplit.Load(), SplitToBusy: r.toBusy.Load(),
	}
	rep.Violations = rep.Overlaps + rep.FenceBackwards
	rep.Acquisitions = make([]int64, len(r.workers))
	for i := range r.workers {
		rep.Acquisitions[i] = r.workers[i].acquired
	}
	rep.Fairness = jainIndex(rep.Acquisitions)
	margins := r.margins.Histogram()
	rep.MarginUS = record.Summarize(margins)
	if margins.TotalCount() > 0 {
		rep.MarginMinUS = float64(margins.Min()) / 1e3
		rep.MarginP1US = float64(margins.ValueAtPercentile(1)) / 1e3
	}
	return rep
}

// jainIndex is (Σx)² / (n·Σx²); 0 when nothing was acquired.
func jainIndex(x []int64) float64 {
	var sum, sq float64
	for _, v := range x {
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(x)) * sq)
}
