package render

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// FlexWidth is the most columns column flex of a NewTable may take so the
// table fits width: what the other columns' headers and cells need (one
// space of padding each) leaves it, and at least 16. Setting it as the
// column's ColMaxWidths makes only that column wrap; tablewriter would
// otherwise narrow every column.
func FlexWidth(header []any, rows [][]any, flex, width int) int {
	used := 0
	for i := range header {
		if i == flex {
			used++ // its padding
			continue
		}
		used += columnWidth(header, rows, i) + 1
	}
	return max(width-used, 16)
}

// columnWidth is the width of column i's widest header line or cell.
func columnWidth(header []any, rows [][]any, i int) int {
	w := 0
	for _, line := range strings.Split(fmt.Sprint(header[i]), "\n") {
		w = max(w, twwidth.Width(line))
	}
	for _, r := range rows {
		w = max(w, twwidth.Width(fmt.Sprint(r[i])))
	}
	return w
}

// breakAtSlash splits name into lines of at most width columns after a
// "/", where it can.
func breakAtSlash(name string, width int) string {
	var lines []string
	for twwidth.Width(name) > width {
		cut := strings.LastIndex(name[:min(len(name), width)], "/")
		if cut <= 0 {
			break
		}
		lines = append(lines, name[:cut+1])
		name = name[cut+1:]
	}
	return strings.Join(append(lines, name), "\n")
}
