package render

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestWriteErrorsRounds: the errors list under a table of rounds gives
// each cell's master once, its rounds together, with how many rounds had
// errors; the totals line adds up every count shown, timeouts apart; the
// caller's note follows it.
func TestWriteErrorsRounds(t *testing.T) {
	timeout := schema.ErrorCount{Message: schema.NoAnswer + " within 50ms (SET)", Count: 5}
	refused := schema.ErrorCount{Message: "connection refused", Count: 2}
	a1 := schema.Run{Name: "a", Repeat: 1, ErrorsByMaster: []schema.MasterErrors{{Index: 1, Master: "m1", Errors: 7, FirstS: 0.5, Messages: []schema.ErrorCount{timeout, refused}}}}
	a2 := schema.Run{Name: "a", Repeat: 2}
	a3 := schema.Run{Name: "a", Repeat: 3, ErrorsByMaster: []schema.MasterErrors{{Index: 1, Master: "m1", Errors: 5, FirstS: -0.2, Messages: []schema.ErrorCount{timeout}}}}
	once := schema.Run{Name: "once", ErrorsByMaster: []schema.MasterErrors{{Index: 2, Master: "m2", Errors: 3, Messages: []schema.ErrorCount{{Message: "ERR x", Count: 3}}}}}
	var out strings.Builder
	if err := writeErrors(&out, []schema.Run{a1, a2, a3, once}, "what they mean"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"  a (2 of 3 rounds)  master 1 m1: 12 errors, first at -0.20s\n",
		"          10× " + timeout.Message + "\n",
		"           2× connection refused\n",
		"  once  master 2 m2: 3 errors",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("errors list lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "master 1 m1") != 1 {
		t.Errorf("master 1 of cell a listed per round, want once:\n%s", s)
	}
	if !strings.Contains(s, "  in all: 15 failed commands on 2 master(s), 10 of them timeouts\nwhat they mean\n") {
		t.Errorf("totals and note:\n%s", s)
	}
	out.Reset()
	if err := writeErrors(&out, []schema.Run{a2}, "note"); err != nil || out.Len() != 0 {
		t.Errorf("no errors: %q (%v), want nothing", out.String(), err)
	}
}
