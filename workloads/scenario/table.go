package scenario

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// tablesTo is a RunAll's done that prints a table (WriteTable) of each group
// of scenarios on w, a blank line between two.
func tablesTo(w io.Writer) func(Kind, []Result) {
	tables := 0
	return func(k Kind, outs []Result) {
		if tables++; tables > 1 {
			fmt.Fprintln(w)
		}
		WriteTable(w, k, outs)
	}
}

// WriteTable prints the rows of outs, scenarios of one kind: measured
// against expected, one row per scenario (per backend for client-pause).
func WriteTable(w io.Writer, kind Kind, outs []Result) {
	var rows []*schema.ScenarioOutcome
	var backends []string
	for _, o := range outs {
		for _, r := range o.Runs {
			rows, backends = append(rows, r.Scenario), append(backends, r.Backend)
		}
	}
	switch kind {
	case ClientPause:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "scenario\tbackend\trounds\tstale writes accepted\tstale writes rejected\texpected\tas expected")
		for i, o := range rows {
			f := o.Fencing
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", o.Scenario, backends[i], f.Rounds, f.StaleAccepted, f.StaleRejected, o.Expected, asExpected(o))
		}
		tw.Flush()
	case Failover:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "scenario\twait replicas\tA granted\tB granted\treplica promoted\tfailover\tviolations\texpected\tas expected")
		for _, o := range rows {
			f := o.Failover
			fmt.Fprintf(tw, "%s\t%d\t%t\t%t\t%t\t%.0f ms\t%d\t%s\t%s\n", o.Scenario, f.WaitReplicas, f.AGranted, f.BGranted, f.Promoted, f.FailoverMS, o.Violations, o.Expected, asExpected(o))
		}
		tw.Flush()
	default:
		WriteFaultsTable(w, rows)
	}
}

func asExpected(o *schema.ScenarioOutcome) string {
	if o.AsExpect {
		return "yes"
	}
	return "NO"
}

// WriteFaultsTable is the fault scenarios' table: violations,
// availability before, during and after, outage and recovery.
func WriteFaultsTable(w io.Writer, outs []*schema.ScenarioOutcome) {
	header := []any{"scenario", "viola-\ntions", "acquired/s\nbefore", "\nduring", "\nafter", "outage\nms", "recovery\nms", "expected", "ok"}
	var rows [][]any
	for _, o := range outs {
		rec := "-"
		if o.RecoveryMS >= 0 {
			rec = fmt.Sprintf("%.0f", o.RecoveryMS)
		}
		after := "-"
		if o.After >= 0 {
			after = fmt.Sprintf("%.0f", o.After)
		}
		rows = append(rows, []any{o.Scenario, fmt.Sprint(o.Violations), fmt.Sprintf("%.0f", o.Before), fmt.Sprintf("%.0f", o.During), after,
			fmt.Sprintf("%.0f", o.LongestOutageMS), rec, o.Expected, asExpected(o)})
	}
	t := render.NewTable(w, render.TableWidth)
	t.Configure(func(cfg *tablewriter.Config) {
		align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}
		cfg.Header.Alignment.PerColumn, cfg.Row.Alignment.PerColumn = align, align
		// The expected outcome is prose: only it wraps, at words.
		cfg.Row.Formatting.AutoWrap = tw.WrapNormal
		cfg.Row.ColMaxWidths.PerColumn = tw.Mapper[int, int]{7: render.FlexWidth(header, rows, 7, render.TableWidth)}
	})
	t.Header(header...)
	for _, r := range rows {
		_ = t.Append(r...)
	}
	_ = t.Render()
}
