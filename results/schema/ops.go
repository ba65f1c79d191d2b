package schema

import "strings"

// Measured is whether r recorded latencies of op (a count above zero): a
// p99 of no samples reads 0 and would pass any check.
func Measured(r Run, op string) bool {
	p, ok := r.LatencyUS[op]
	return ok && p.Count > 0
}

// KnownOp is whether op names an op of the vocabulary.
func KnownOp(op string) bool {
	for _, o := range Ops() {
		if o.String() == op {
			return true
		}
	}
	return false
}

// OpNames lists the ops, for error messages.
func OpNames() string {
	var s []string
	for _, o := range Ops() {
		s = append(s, o.String())
	}
	return strings.Join(s, ", ")
}
