package gate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results"
)

// TestOpHelp: --op's help lists every op there is.
func TestOpHelp(t *testing.T) {
	f, _ := reflect.TypeOf(Options{}).FieldByName("LatencyOp")
	if h, want := f.Tag.Get("help"), ": "+strings.ReplaceAll(results.OpNames(), ", ", "|"); !strings.HasSuffix(h, want) {
		t.Errorf("help %q does not end %q", h, want)
	}
}
