package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

func TestReportHTMLSelfContained(t *testing.T) {
	for _, fx := range reportFixtures {
		t.Run(fx.kind, func(t *testing.T) {
			var buf bytes.Buffer
			rep := fx.make(t)
			rep.Title = "title </script><b>"
			if err := rep.WriteHTML(&buf); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			for _, bad := range []string{"http://", "https://", "<script src", "<link "} {
				if strings.Contains(strings.ReplaceAll(page, "http://www.w3.org/2000/svg", ""), bad) {
					t.Errorf("page refers outside itself: %q", bad)
				}
			}
			if strings.Contains(page, "<b>") {
				t.Error("title not escaped")
			}
		})
	}
}

// TestReportLabelsRounds: the rounds of a compare --repeat share a run
// name; the report labels each with its round and finds its own logs.
func TestReportLabelsRounds(t *testing.T) {
	s := &schema.Summary{Runs: []schema.Run{{Name: "a", Repeat: 1}, {Name: "a", Repeat: 2}, {Name: "b"}}}
	var rep Report
	rep.AddSource("x", s, nil)
	var got []string
	for _, r := range rep.Runs {
		got = append(got, r.Run.Name)
	}
	if want := "a round 1,a round 2,b"; strings.Join(got, ",") != want {
		t.Errorf("labels %q, want %q", strings.Join(got, ","), want)
	}
}
