package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// TableWidth is the default table's budget: it fits a 100-column terminal.
const TableWidth = 100

// TableOptions choose the columns and the width.
type TableOptions struct {
	// Ratios, keyed by run name, adds a column (e.g. the ratio of each run's
	// throughput to the sequential baseline of the same run).
	Ratios    map[string]float64
	RatioName string
	// Wide shows every column instead of the essentials.
	Wide bool
	// MaxWidth bounds the default table in columns (a terminal's width):
	// the run name wraps to fit, with tablewriter's own wrapping. 0:
	// TableWidth. A Wide table is never bounded: it is for files and wide
	// terminals, and a wrapped 20-column table reads worse than a long line.
	MaxWidth int
	// ErrorsNote, if set, follows the errors under the table: what they
	// mean for this run (the caller knows its faults, timeouts, machine).
	ErrorsNote string

	// spreads are the rows' Spread by name, for runs repeated in rounds.
	spreads map[string]float64
	// namePrefix is what every run's name begins with ("redlock/"), left
	// out of the run column and said in its header.
	namePrefix string
}

// unusableSpread is the spread beyond which a cell's rounds disagree too
// much for its median to be a figure to plan with: it is flagged.
const unusableSpread = 0.5

// commonPrefix is the leading "/"-separated parts every name shares, with
// the trailing "/", leaving each name one part at least; "" when none.
func commonPrefix(runs []schema.Run) string {
	if len(runs) < 2 {
		return ""
	}
	parts := strings.Split(runs[0].Name, "/")
	n := len(parts) - 1
	for _, r := range runs[1:] {
		p := strings.Split(r.Name, "/")
		k := 0
		for k < n && k < len(p)-1 && p[k] == parts[k] {
			k++
		}
		n = k
	}
	if n == 0 {
		return ""
	}
	return strings.Join(parts[:n], "/") + "/"
}

// column is one table column: shown by default when essential, always with
// --wide; when is nil or true for some run.
type column struct {
	head      string // "\n" splits a header over two lines
	essential bool
	words     bool // cells of words, kept whole
	when      func(runs []schema.Run, opt TableOptions) bool
	cell      func(r schema.Run, opt TableOptions) string
}

// columns in table order. The essentials are what a reader compares at a
// glance: throughput, acquire p50/p99, cycle p99, split-brain and error
// shares of the attempts, violations and the ratio.
var columns = []column{
	{head: "run", essential: true, cell: func(r schema.Run, opt TableOptions) string {
		name := strings.TrimPrefix(r.Name, opt.namePrefix)
		if len(r.Failures()) > 0 {
			name += " !" // no progress: the notes under the table say when and why
		}
		if r.Interrupted {
			name += " *"
		}
		return name
	}},
	{head: "durability", essential: true, words: true, when: func(runs []schema.Run, _ TableOptions) bool {
		for _, r := range runs {
			if r.Durability != runs[0].Durability {
				return true
			}
		}
		return false
	}, cell: func(r schema.Run, _ TableOptions) string { return r.Durability }},
	{head: "workers", cell: func(r schema.Run, _ TableOptions) string { return strconv.Itoa(r.Workers) }},
	{head: "cycles/s", essential: true, cell: func(r schema.Run, _ TableOptions) string { return num(r.Throughput.CyclesPerS) }},
	{head: "spread", essential: true, when: func(runs []schema.Run, _ TableOptions) bool {
		for _, r := range runs {
			if r.Repeat > 0 {
				return true
			}
		}
		return false
	}, cell: func(r schema.Run, opt TableOptions) string {
		if v, ok := opt.spreads[r.Name]; ok && r.Repeat > 0 {
			if v > unusableSpread {
				return "±" + percent(v) + "%!"
			}
			return "±" + percent(v) + "%"
		}
		return "-"
	}},
	{head: "attempts/s", cell: func(r schema.Run, _ TableOptions) string { return num(r.Throughput.AttemptsPerS) }},
	{head: "acquire\np50 µs", essential: true, cell: latency("acquire", 50)},
	{head: "acquire\np99 µs", essential: true, cell: latency("acquire", 99)},
	{head: "acq_total\np99 µs", cell: latency("acquire_total", 99)},
	{head: "cycle\np50 µs", cell: latency("cycle", 50)},
	{head: "cycle\np99 µs", essential: true, cell: latency("cycle", 99)},
	{head: "acquired", cell: count(func(c schema.Counts) int64 { return c.Acquired })},
	{head: "busy", cell: count(func(c schema.Counts) int64 { return c.Busy })},
	{head: "split", cell: count(func(c schema.Counts) int64 { return c.SplitBrain })},
	{head: "timeouts", cell: count(func(c schema.Counts) int64 { return c.Timeouts })},
	{head: "errors", cell: count(func(c schema.Counts) int64 { return c.Errors })},
	{head: "split\n% att", essential: true, cell: func(r schema.Run, _ TableOptions) string { return percent(splitShare(r)) }},
	{head: "errors\n% att", essential: true, cell: func(r schema.Run, _ TableOptions) string { return percent(ErrorRate(r)) }},
	{head: "viola-\ntions", essential: true, cell: count(func(c schema.Counts) int64 { return c.Violations })},
	{head: "stale", essential: true, when: func(runs []schema.Run, _ TableOptions) bool {
		for _, r := range runs {
			if r.Counts.StaleOverlaps > 0 {
				return true
			}
		}
		return false
	}, cell: count(func(c schema.Counts) int64 { return c.StaleOverlaps })},
	{head: "stalls", when: anyRun(func(r schema.Run) bool { return len(r.Failures()) > 0 }), cell: stallCell},
	{head: "unfin-\nished", cell: func(r schema.Run, _ TableOptions) string { return unfinishedCell(r.Unfinished) }},
	{head: "retries\n/acq", cell: func(r schema.Run, _ TableOptions) string { return strconv.FormatFloat(r.RetriesPerAcquire, 'f', 2, 64) }},
	{head: "fairness", cell: func(r schema.Run, _ TableOptions) string { return strconv.FormatFloat(r.Fairness, 'f', 3, 64) }},
	{head: "margin\np50 ms", cell: func(r schema.Run, _ TableOptions) string {
		if m := r.ValidityMarginUS; m != nil && m.Count > 0 {
			return strconv.FormatFloat(m.P50/1e3, 'f', 1, 64)
		}
		return "-"
	}},
	{head: "missed\nstarts", cell: func(r schema.Run, _ TableOptions) string {
		if r.Rate > 0 {
			return strconv.FormatInt(r.MissedStarts, 10)
		}
		return "-"
	}},
	{head: "server\nµs/cycle", cell: func(r schema.Run, _ TableOptions) string { return serverCostCell(r.Cost) }},
	{head: "delay\nµs/cycle", when: func(runs []schema.Run, _ TableOptions) bool {
		return slices.ContainsFunc(runs, func(r schema.Run) bool { return r.Cost != nil && r.Cost.DelayCPUUSPerCycle > 0 })
	}, cell: func(r schema.Run, _ TableOptions) string {
		if r.Cost == nil || r.Cost.DelayCPUUSPerCycle == 0 {
			return "-"
		}
		return us(r.Cost.DelayCPUUSPerCycle)
	}},
	{head: "ratio", essential: true, when: func(_ []schema.Run, opt TableOptions) bool { return opt.Ratios != nil },
		cell: func(r schema.Run, opt TableOptions) string {
			if v, ok := opt.Ratios[r.Name]; ok {
				return fmt.Sprintf("%.2f×", v)
			}
			return "-"
		}},
}

// tableColumns picks the columns opt asks for.
func tableColumns(runs []schema.Run, opt TableOptions) []column {
	var out []column
	for _, c := range columns {
		if (c.essential || opt.Wide) && (c.when == nil || c.when(runs, opt)) {
			if c.head == "ratio" && opt.RatioName != "" {
				c.head = opt.RatioName
			}
			out = append(out, c)
		}
	}
	return out
}

// NewTable is the style every lockbench table shares: no outer border, a
// rule under the header, one space between columns, numbers right-aligned;
// tablewriter wraps headers and cells to maxWidth (0: unbounded).
func NewTable(w io.Writer, maxWidth int) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleLight),
			Settings: tw.Settings{
				Separators: tw.Separators{ShowHeader: tw.On, BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignRight),
		tablewriter.WithRowAlignment(tw.AlignRight),
		tablewriter.WithPadding(tw.Padding{Left: " ", Right: "", Overwrite: true}),
		tablewriter.WithMaxWidth(maxWidth),
		tablewriter.WithHeaderAutoWrap(tw.WrapNormal),
		tablewriter.WithRowAutoWrap(tw.WrapBreak),
		tablewriter.WithTrimSpace(tw.Off),
	)
}

// WriteTable prints the end-of-run table, one row per run: the essential
// columns within opt.MaxWidth, or every column with opt.Wide. An
// interrupted run is marked with * and a note under the table. Runs
// repeated in rounds are one row each (MedianRun) with their spread, and
// a note under the table says so.
func WriteTable(w io.Writer, runs []schema.Run, opt TableOptions) error {
	all := runs
	runs, opt.spreads = stats.MedianRuns(all), map[string]float64{}
	for _, row := range stats.Repeats(all) {
		opt.spreads[row[0].Name] = stats.Spread(row)
	}
	if opt.namePrefix = commonPrefix(runs); opt.Wide {
		opt.namePrefix = "" // a wide table is for files and wide terminals: names whole
	}
	width := opt.MaxWidth
	switch {
	case opt.Wide:
		width = 0
	case width == 0:
		width = TableWidth
	}
	cols := tableColumns(runs, opt)
	header, rows := tableCells(cols, runs, opt)
	if width > 0 && !fits(cols, header, rows, width) {
		// Too wide for the terminal: the columns of words go first.
		cols = slices.DeleteFunc(cols, func(c column) bool { return c.words })
		header, rows = tableCells(cols, runs, opt)
	}
	interrupted := false
	for _, r := range runs {
		interrupted = interrupted || r.Interrupted
	}
	t := NewTable(w, width)
	t.Header(header...)
	if width > 0 {
		// The run name takes what the numbers leave; a name too long for it
		// is broken after a "/" (its parts read whole), and tablewriter
		// breaks a part still too long (it would otherwise narrow every
		// column).
		name := FlexWidth(header, rows, 0, width)
		for _, r := range rows {
			r[0] = breakAtSlash(r[0].(string), name)
		}
		widths := tw.Mapper[int, int]{0: name + 1} // tablewriter counts the padding in
		for i, c := range cols {
			if c.words { // as wide as its widest cell (and padding): no word broken
				widths[i] = columnWidth(header, rows, i) + 1
			}
		}
		t.Configure(func(cfg *tablewriter.Config) {
			cfg.Row.ColMaxWidths.PerColumn = widths
			cfg.Header.ColMaxWidths.PerColumn = tw.Mapper[int, int]{0: name}
		})
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
	})
	for _, row := range rows {
		if err := t.Append(row...); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if interrupted {
		if err := writeCutShort(w, runs); err != nil {
			return err
		}
	}
	if err := writeRoundsNote(w, all); err != nil {
		return err
	}
	if err := writeStalls(w, all); err != nil {
		return err
	}
	return writeErrors(w, all, opt.ErrorsNote)
}

// tableCells is the header and the rows of cols for runs.
func tableCells(cols []column, runs []schema.Run, opt TableOptions) ([]any, [][]any) {
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = c.head
		if c.head == "run" && opt.namePrefix != "" {
			header[i] = "run: " + opt.namePrefix + "…"
		}
	}
	rows := make([][]any, len(runs))
	for j, r := range runs {
		rows[j] = make([]any, len(cols))
		for i, c := range cols {
			rows[j][i] = c.cell(r, opt)
		}
	}
	return header, rows
}

// fits reports whether the columns leave the run name its 16 columns
// (FlexWidth's floor) of width.
func fits(cols []column, header []any, rows [][]any, width int) bool {
	used := 1 + 16 // the name and its padding
	for i := 1; i < len(cols); i++ {
		used += columnWidth(header, rows, i) + 1
		if cols[i].words {
			used++ // kept whole: tablewriter counts its padding in its width
		}
	}
	return used <= width
}

// writeRoundsNote says, under a table of runs repeated in rounds, what
// its rows are.
func writeRoundsNote(w io.Writer, runs []schema.Run) error {
	repeated := false
	for _, r := range runs {
		repeated = repeated || r.Repeat > 0
	}
	if !repeated {
		return nil
	}
	fewest, most := stats.Rounds(runs)
	flagged := false
	for _, row := range stats.Repeats(runs) {
		flagged = flagged || stats.Spread(row) > unusableSpread
	}
	n := strconv.Itoa(most)
	if fewest < most {
		n = fmt.Sprintf("%d–%d", fewest, most) // cut short: later cells have fewer
	}
	if _, err := fmt.Fprintf(w, "medians of %s rounds: cycles/s, ratios; spread: the round farthest from the median;\n"+
		"counts and shares: totals of the rounds; latencies: the median round's\n", n); err != nil || !flagged {
		return err
	}
	_, err := fmt.Fprintf(w, "!: a spread beyond ±%.0f %%: the rounds disagree, that median is no figure to plan with\n", 100*unusableSpread)
	return err
}

// writeCutShort is the note under a table with an interrupted run: why
// each was cut short where it says (a generator lost, the coordination
// store lost), else the causes it may have had.
func writeCutShort(w io.Writer, runs []schema.Run) error {
	var why []string
	for _, r := range runs {
		if r.CutShort != "" {
			why = append(why, fmt.Sprintf("* %s cut short %s", r.Name, r.CutShort))
		}
	}
	if len(why) == 0 {
		why = []string{"* interrupted: cut short (a signal, an abort, a generator lost), shorter than --duration"}
	}
	_, err := fmt.Fprintln(w, strings.Join(why, "\n"))
	return err
}
