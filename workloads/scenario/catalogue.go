package scenario

import (
	"time"

	"github.com/lockbench/lockbench/workloads/lab"
)

// faultScenarios are the Faults scenarios: Redlock on 5 local masters with
// faults played during a contended load.
var faultScenarios = []Scenario{
	{
		Name:   "minority-down",
		About:  "2 of 5 masters crash at 2s and stay down: a quorum of 3 remains.",
		Kind:   Faults,
		Expect: Expect{Words: "available throughout, 0 violations", Violations: No, Available: true},
		Setup: func(c *lab.Config) {
			c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 4, 8, 10*time.Millisecond, 5*time.Second
			c.Driver.Redlock.TTL = time.Second
			c.Faults = []string{"kill:masters=1,2:at=2s:restart=never"}
		},
	},
	{
		Name:  "majority-down",
		About: "3 of 5 masters crash at 2s and come back empty 2s later (after the 1s TTL).",
		Kind:  Faults,
		Expect: Expect{Words: "unavailable while down, 0 violations, recovers", Violations: No,
			MinOutage: time.Second, Recovers: true},
		Setup: func(c *lab.Config) {
			c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 4, 8, 10*time.Millisecond, 6*time.Second
			c.Driver.Redlock.TTL = time.Second
			c.Faults = []string{"kill:masters=1,2,3:at=2s:restart=delayed:delay=2s"}
		},
	},
	{
		Name: "restart-no-persistence",
		About: "A majority (3 of 5) crashes while a holder is inside its 1s critical section and restarts at once " +
			"without persistence (twice: at 1.5s and 4.5s): the key is gone from a quorum and another worker wins it.",
		Kind:   Faults,
		Expect: Expect{Words: "violations > 0", Violations: yes},
		Setup:  restartSetup("restart=immediate", "1500ms", "4500ms"),
	},
	{
		Name: "restart-no-persistence-delayed",
		About: "The same crash of 3 of 5 masters at 1.5s, but they restart only after ttl+1s (antirez's delayed " +
			"restart): every lease granted before the crash has expired by then.",
		Kind:   Faults,
		Expect: Expect{Words: "0 violations (unavailable while a majority is down)", Violations: No},
		Setup:  restartSetup("restart=delayed:delay=ttl+1s", "1500ms"),
	},
	{
		Name: "clock-jump",
		About: "Kleppmann's example: a holder takes the key on masters 1-3 while 4 and 5 are down; they come back " +
			"empty, then master 3's wall clock jumps ahead by the 3s TTL: its copy expires and a contender wins " +
			"3, 4, 5 inside the holder's validity.",
		Kind:   Faults,
		Expect: Expect{Words: "violations > 0", Violations: yes},
		Setup:  clockJumpSetup("+3s"),
	},
	{
		Name: "clock-jump-within-drift",
		About: "The same, but master 3's clock jumps by only 10ms, inside Redlock's drift allowance " +
			"(1% of the TTL + 2ms = 32ms): the holder's validity ends before the early expiry.",
		Kind:   Faults,
		Expect: Expect{Words: "0 violations", Violations: No},
		Setup:  clockJumpSetup("+10ms"),
	},
}

// clockJumpSetup is Kleppmann's clock example. Masters 4 and 5 are down
// (killed at 0, back empty at 0.5s) while a holder takes the key on 1, 2 and
// 3 for its whole 3s TTL; at 2s master 3's wall clock jumps by jump (see
// compose/internal/clockshift). A jump past the TTL expires master 3's copy at once
// and a contender wins 3, 4 and 5 inside the holder's validity; a jump
// inside the drift allowance expires it only after the validity ended. The
// 1.5s between restart and jump leave go-redis time to redial the restarted
// masters (its pool retries a failed dial once a second).
func clockJumpSetup(jump string) func(*lab.Config) {
	return func(c *lab.Config) {
		// One contender: several would split masters 3-5 between them
		// round after round (split-brain retries), blurring the effect.
		c.Workload.Keys, c.Workload.Workers, c.Workload.Duration = 1, 2, 4*time.Second
		c.Driver.Redlock.TTL = 3 * time.Second
		c.Workload.Hold = c.Driver.Redlock.TTL
		c.Faults = []string{"kill:masters=4,5:at=0s:restart=delayed:delay=500ms", "clock-jump:masters=3:" + jump + ":at=2s"}
	}
}

// restartSetup: one hot key, long holds, so a crash almost surely hits a
// holder with most of its validity left; two crashes, so one holder that
// happens to release at once does not hide the effect.
func restartSetup(restart string, at ...string) func(*lab.Config) {
	return func(c *lab.Config) {
		c.Workload.Keys, c.Workload.Workers, c.Workload.Hold, c.Workload.Duration = 1, 4, time.Second, 7*time.Second
		c.Driver.Redlock.TTL = 2 * time.Second
		for _, a := range at {
			c.Faults = append(c.Faults, "kill:masters=1,2,3:at="+a+":"+restart)
		}
	}
}
