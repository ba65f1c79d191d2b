package output

import "github.com/lockbench/lockbench/results/render"

func init() {
	RegisterFormat(Format{Name: "gobench", Help: "Go benchmark lines for benchstat and CI benchmark actions",
		Print: render.WriteGoBench})
}
