package output

import (
	"io"

	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

func init() {
	RegisterFormat(Format{Name: "csv", Help: "the runs table, every column",
		Print: func(w io.Writer, sum *schema.Summary) error { return render.WriteCSV(w, sum.Runs) }})
}
