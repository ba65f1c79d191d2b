package schema

// RefereeReport is what the referee (package results/referee) concluded
// over the measured window: a plain schema type, so a Run carries it and
// the schema imports no referee.
type RefereeReport struct {
	// Violations = Overlaps + FenceBackwards.
	Violations     int64 `json:"violations"`
	Overlaps       int64 `json:"overlaps"`
	FenceBackwards int64 `json:"fence_backwards"`
	// StaleOverlaps: grants whose holder kept using the key past their
	// validity (released > valid until, a stalled client) while another
	// worker was granted it in [valid until, released). Not a violation —
	// the lock service kept its promise — but two users of the resource at
	// once unless it checks a fencing token. Counted once per such grant.
	StaleOverlaps int64 `json:"stale_overlaps"`
	// BusyToSplit: attempts the client called busy though nobody held the
	// key (partial votes of contenders); SplitToBusy: the reverse.
	BusyToSplit int64 `json:"busy_to_split"`
	SplitToBusy int64 `json:"split_to_busy"`
	// Fairness is Jain's index of per-worker acquisitions: 1 = even, 1/n =
	// one worker got everything.
	Fairness     float64 `json:"fairness"`
	Acquisitions []int64 `json:"-"`
	// MarginUS: validity left at grant (valid-until − granted), µs.
	MarginUS    Percentiles `json:"validity_margin_us"`
	MarginMinUS float64     `json:"validity_margin_min_us"`
	MarginP1US  float64     `json:"validity_margin_p1_us"`
}

// FillReferee puts the referee's verdicts into the run: violations and
// stale overlaps into Counts, fairness and validity margin into their
// fields, the details into Referee.
func (r *Run) FillReferee(rep RefereeReport) {
	r.Counts.Violations = rep.Violations
	r.Counts.StaleOverlaps = rep.StaleOverlaps
	r.Fairness = rep.Fairness
	m := rep.MarginUS
	r.ValidityMarginUS = &m
	r.Referee = &rep
}
