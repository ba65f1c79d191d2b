package referee

// Violations is the number of violations counted so far. Unlike Report it
// may be called while workers run (two atomic loads): the metrics exporter
// reads it on every tick.
func (r *Referee) Violations() int64 { return r.overlaps.Load() + r.fenceBack.Load() }
