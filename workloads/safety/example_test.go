package safety_test

import (
	"fmt"

	"github.com/lockbench/lockbench/workloads/safety"
)

// A point's violations as a rate per 10⁶ grants with its exact 95 %
// interval; a zero is bounded by the rule of three.
func ExampleRateOf() {
	for _, r := range []safety.Rate{safety.RateOf(5, 1_000_000), safety.RateOf(0, 200)} {
		fmt.Printf("%d of %d: %.2f per 10⁶ [%.2f, %.2f]\n", r.Events, r.Grants, r.PerMillion, r.Lo, r.Hi)
	}
	fmt.Println("grants for a bound of 1 per 10⁶:", safety.GrantsForBound(1))
	// Output:
	// 5 of 1000000: 5.00 per 10⁶ [1.62, 11.67]
	// 0 of 200: 0.00 per 10⁶ [0.00, 15000.00]
	// grants for a bound of 1 per 10⁶: 3000000
}

// A lease's holder paused past its TTL: its successor wrote first, so the
// holder's late write is stale. The fenced resource refuses it by its
// older token; an unfenced one lets it land.
func ExampleResource() {
	for _, fencing := range []bool{false, true} {
		r := safety.NewResource(fencing)
		a := r.Grant("k")          // A is granted (token 1) ...
		r.Write("k", a, 1)         // ... writes, and pauses
		b := r.Grant("k")          // A's lease lapsed: B is granted (token 2)
		r.Write("k", b, 2)         // B writes
		late := r.Write("k", a, 1) // A resumes and writes
		fmt.Printf("fencing %v: late write accepted %v, %+v\n", fencing, late, r.Counts())
	}
	// Output:
	// fencing false: late write accepted true, {Writes:3 Stale:1 StaleAccepted:1 StaleRejected:0 FreshRejected:0}
	// fencing true: late write accepted false, {Writes:3 Stale:1 StaleAccepted:0 StaleRejected:1 FreshRejected:0}
}
