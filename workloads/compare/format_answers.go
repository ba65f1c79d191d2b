package compare

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// The answers as CSV (--format answers): one row per cell of each
// workload's ranking, then the workload's recommendation, so two compares
// diff line by line.
func init() {
	output.RegisterFormat(output.Format{Name: "answers", Help: "compare's ranks and recommendations as CSV, to diff two compares",
		Print: func(w io.Writer, sum *schema.Summary) error { return writeAnswersCSV(w, Answers(sum.Runs)) }})
}

func writeAnswersCSV(w io.Writer, answers []Answer) error {
	c := csv.NewWriter(w)
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }
	_ = c.Write([]string{"workload", "rank", "cell", "cycles_per_s", "lo", "hi", "rerun_lo", "rerun_hi", "recommendation"})
	for _, a := range answers {
		for _, s := range a.Standings {
			rank := strconv.Itoa(s.Rank)
			if s.Tied {
				rank += "="
			}
			_ = c.Write([]string{title(a), rank, s.Cell, f(s.Rate.Median), f(s.Rate.Lo), f(s.Rate.Hi), f(s.Rerun.Lo), f(s.Rerun.Hi), ""})
		}
		_ = c.Write([]string{title(a), "", "", "", "", "", "", "", Recommend(a)})
	}
	c.Flush()
	return c.Error()
}
