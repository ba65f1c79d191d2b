package compare

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestAnswersFormat: --format answers prints each workload's ranking as
// CSV rows (every cell once, ranks as the answer has them) and its
// recommendation, and nothing else.
func TestAnswersFormat(t *testing.T) {
	var runs []schema.Run
	for round := 1; round <= 6; round++ {
		for i, mux := range []string{"pipeline", "sequential"} {
			runs = append(runs, schema.Run{Name: "redlock/rueidis/" + mux + "/uncontended", Client: "rueidis", Mux: mux, Workload: "uncontended",
				Repeat: round, Throughput: schema.Throughput{CyclesPerS: float64(10000/(i*4+1) + round)}})
		}
	}
	var b strings.Builder
	if err := writeAnswersCSV(&b, Answers(runs)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b.String())
	}
	if len(rows) != 4 || rows[1][1] != "1" || rows[1][2] != "redlock/rueidis/pipeline/uncontended" || rows[2][1] != "2" ||
		!strings.HasPrefix(rows[3][8], "use pipeline; sequential 5.0× behind") {
		t.Errorf("rows:\n%s", b.String())
	}
}
