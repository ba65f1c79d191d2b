package crossref

import (
	"sort"
)

// Judgement is the judgement of grants across generators.
type Judgement struct {
	Grants int64 `json:"grants"`
	// Violations: pairs of grants of one key by different generators whose
	// windows [granted, min(valid until, released)) overlap by more than
	// the two generators' error bounds together: they overlapped whatever
	// the clocks' true offsets were.
	Violations int64 `json:"violations"`
	// Undecidable: pairs whose overlap, or gap, is within the error bounds:
	// the clocks cannot tell whether they overlapped.
	Undecidable int64 `json:"undecidable"`
	// MaxErrorUS is the largest generator error bound.
	MaxErrorUS float64 `json:"max_error_us"`
}

type entry struct {
	gen        int
	err        int64
	start, end int64
}

// Judge compares every grant with the grants of the same key by other
// generators. Grants of one generator are its own referee's to judge (it
// saw them on one clock, with no error): they are not counted here.
func Judge(logs []Timed) Judgement {
	var v Judgement
	byKey := map[string][]entry{}
	for _, l := range logs {
		v.MaxErrorUS = max(v.MaxErrorUS, float64(l.ErrorNS)/1e3)
		for _, g := range l.Grants {
			byKey[g.Key] = append(byKey[g.Key], entry{gen: l.Generator, err: l.ErrorNS, start: g.Granted, end: g.End()})
			v.Grants++
		}
	}
	var maxErr int64
	for _, l := range logs {
		maxErr = max(maxErr, l.ErrorNS)
	}
	for _, es := range byKey {
		sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
		// active: earlier grants that may still reach a later start within
		// the widest error bound.
		var active []entry
		for _, e := range es {
			kept := active[:0]
			for _, a := range active {
				if a.end+2*maxErr > e.start {
					kept = append(kept, a)
				}
			}
			active = kept
			for _, a := range active {
				if a.gen == e.gen {
					continue
				}
				overlap := min(a.end, e.end) - max(a.start, e.start)
				bound := a.err + e.err
				switch {
				case overlap > bound:
					v.Violations++
				case overlap > -bound:
					v.Undecidable++
				}
			}
			active = append(active, e)
		}
	}
	return v
}
