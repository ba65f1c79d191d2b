package safety

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/exit"
)

// TestRequestMeasureEnds: a sweep that measured nothing writes nothing
// (a failure as it is, a signal an early interruption); one that measured
// points prints and writes them, then ends as it ended; with the JSON on
// stdout the table moves to stderr.
func TestRequestMeasureEnds(t *testing.T) {
	points := []Point{{Backend: "redlock", Fault: "pause", Ratio: 2, Fencing: FencingOff, Grants: 200}}
	boom := errors.New("redis-server: not found")
	for _, tc := range []struct {
		name       string
		res        Result
		err        error
		want       error
		tableOnOut bool
	}{
		{"nothing measured, failed", Result{}, boom, boom, false},
		{"nothing measured, interrupted", Result{Interrupted: true}, nil, exit.ErrInterruptedEarly, false},
		{"points, then a failure", Result{Points: points}, boom, boom, true},
		{"points, interrupted", Result{Points: points, Interrupted: true}, nil, exit.ErrInterrupted, true},
		{"points", Result{Points: points}, nil, nil, true},
	} {
		var stdout, stderr bytes.Buffer
		r := Request{Config: DefaultConfig()}
		measure := func(context.Context, Config, io.Writer) (Result, error) { return tc.res, tc.err }
		err := r.Measure(context.Background(), Outputs{Stdout: &stdout}, &stderr, measure)
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if got := strings.Contains(stdout.String(), "redlock"); got != tc.tableOnOut {
			t.Errorf("%s: table on stdout %v, want %v:\n%s", tc.name, got, tc.tableOnOut, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	r := Request{Config: DefaultConfig(), JSON: "-"}
	measure := func(context.Context, Config, io.Writer) (Result, error) { return Result{Points: points}, nil }
	if err := r.Measure(context.Background(), Outputs{JSON: "-", Stdout: &stdout}, &stderr, measure); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "{") || !strings.Contains(stderr.String(), "redlock") {
		t.Errorf("--json -: stdout %.40q, stderr %.80q: want the JSON on stdout, the table on stderr", stdout.String(), stderr.String())
	}
}
