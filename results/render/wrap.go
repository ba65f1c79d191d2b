package render

import (
	"strings"
	"unicode/utf8"
)

// Wrap breaks every line of s wider than width at spaces. A line's
// continuation is indented as far as its text: past a "  name   text"
// column when the line has one, else as the line itself.
func Wrap(s string, width int) string {
	lines := strings.Split(s, "\n")
	var out []string
	for _, line := range lines {
		out = append(out, wrapLine(line, width)...)
	}
	return strings.Join(out, "\n")
}

// Hang is label and text wrapped to width, the text's later lines
// indented to where its first began ("label text…", then lines under
// "text").
func Hang(label, text string, width int) string {
	// Two spaces after the label make Wrap hang the continuation there;
	// the first line keeps one.
	return strings.Replace(Wrap(label+"  "+text, width), label+"  ", label+" ", 1)
}

func wrapLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	indent := strings.Repeat(" ", hangingIndent(line))
	var out []string
	for utf8.RuneCountInString(line) > width {
		cut := breakAt(line, width, len(indent))
		if cut < 0 {
			break // one word wider than the line: leave it whole
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = indent + strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}

// breakAt is the byte index of the last space at or before column width
// that leaves text after the indent, or -1.
func breakAt(line string, width, indent int) int {
	col, best := 0, -1
	for i, r := range line {
		if col > width {
			break
		}
		if r == ' ' && col > indent {
			best = i
		}
		col++
	}
	return best
}

// hangingIndent is the column where a line's text continues: after the
// first gap of two or more spaces that follows text within the first 40
// columns ("  name   text"), else the line's own leading spaces.
func hangingIndent(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[lead:]
	if gap := strings.Index(rest, "  "); gap > 0 && lead+gap < 40 {
		end := gap + len(rest[gap:]) - len(strings.TrimLeft(rest[gap:], " "))
		if lead+end < 48 {
			return utf8.RuneCountInString(line[:lead+end])
		}
	}
	return lead
}
