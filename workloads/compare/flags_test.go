package compare

import (
	"reflect"
	"strings"
	"testing"
)

// TestBaselinesHelp: --baselines' help lists every baseline there is.
func TestBaselinesHelp(t *testing.T) {
	f, _ := reflect.TypeOf(Config{}).FieldByName("Baselines")
	if h, want := f.Tag.Get("help"), "all or "+strings.Join(BaselineNames(), ","); !strings.HasSuffix(h, want) {
		t.Errorf("help %q does not end %q", h, want)
	}
}
