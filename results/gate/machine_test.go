package gate

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockbench/lockbench/results/schema"
)

func probed(ns ...float64) []schema.Run {
	runs := make([]schema.Run, len(ns))
	for i, v := range ns {
		runs[i] = schema.Run{Name: "r", MemoryProbeNS: v}
	}
	return runs
}

// The gate says what state each side's machine was in, and when the
// states differ, which of its verdicts carry that difference.
func TestMachineNote(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cur, base []schema.Run
		want      []string // substrings; nil: no note
		not       string
	}{
		{"alike", probed(210, 220, 230), probed(200, 215, 240), []string{"baseline 215 ns/load, current 220 ns/load (1.02×)"}, "differed"},
		{"current's host busier", probed(300, 310, 320), probed(200, 210, 220), []string{"(1.48×)", "differed", "counts per cycle"}, ""},
		{"baseline's host busier", probed(200), probed(300), []string{"(0.67×)", "differed"}, ""},
		{"baseline unprobed", probed(200), probed(0, 0), nil, ""},
		{"current unprobed", probed(0), probed(200), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := machineNote(tc.cur, tc.base)
			if tc.want == nil {
				if got != "" {
					t.Errorf("note %q, want none", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("note %q lacks %q", got, w)
				}
			}
			if tc.not != "" && strings.Contains(got, tc.not) {
				t.Errorf("note %q says %q", got, tc.not)
			}
		})
	}
}

// The note is read in a 100-column terminal under the verdict's table:
// wrapped, every word kept.
func TestMachineNoteWrapped(t *testing.T) {
	note := machineNote(probed(300, 310, 320), probed(200, 210, 220))
	var buf bytes.Buffer
	if err := Write(&buf, Verdict{Machine: note}, false); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("a %d-column line: %q", n, line)
		}
	}
	if got := strings.Join(strings.Fields(buf.String()), " "); !strings.Contains(got, note) {
		t.Errorf("output %q does not hold the whole note %q", got, note)
	}
}
