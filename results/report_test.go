package results

import (
	"bytes"
	"strings"
	"testing"
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
