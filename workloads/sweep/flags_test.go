package sweep

import (
	"reflect"
	"strings"
	"testing"
)

// TestOpHelp: --op's help lists the ops a sweep can hold to its SLO.
func TestOpHelp(t *testing.T) {
	f, _ := reflect.TypeOf(Config{}).FieldByName("Op")
	if h, want := f.Tag.Get("help"), ": "+strings.Join(Ops(), "|"); !strings.HasSuffix(h, want) {
		t.Errorf("help %q does not end %q", h, want)
	}
}
