package render

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestWriteErrorsRounds: the errors list under a table of rounds says
// which round of a cell had them.
func TestWriteErrorsRounds(t *testing.T) {
	a, b := schema.Run{Name: "a", Repeat: 1}, schema.Run{Name: "a", Repeat: 2}
	b.ErrorsByMaster = []schema.MasterErrors{{Index: 1, Master: "m", Errors: 3}}
	var out strings.Builder
	if err := writeErrors(&out, []schema.Run{a, b, {Name: "once", ErrorsByMaster: b.ErrorsByMaster}}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "  a (round 2)  master 1 m: 3 errors") || strings.Contains(s, "round 1") || !strings.Contains(s, "  once  master 1") {
		t.Errorf("errors list:\n%s", s)
	}
}
