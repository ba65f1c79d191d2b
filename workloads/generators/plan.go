package generators

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// comparePlans is nil when mine and theirs (generator 0's) are the same
// config, else errPlanMismatch naming the first fields that differ.
func comparePlans(mine, theirs []byte) error {
	var a, b any
	if json.Unmarshal(mine, &a) != nil || json.Unmarshal(theirs, &b) != nil {
		if string(mine) == string(theirs) {
			return nil
		}
		return errPlanMismatch
	}
	var diffs []string
	diff("", a, b, &diffs)
	if len(diffs) == 0 {
		return nil
	}
	sort.Strings(diffs)
	if len(diffs) > 3 {
		diffs = append(diffs[:3], "…")
	}
	return fmt.Errorf("%w: %s", errPlanMismatch, strings.Join(diffs, "; "))
}

func diff(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			diff(p, am[k], bm[k], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		mine, _ := json.Marshal(a)
		theirs, _ := json.Marshal(b)
		*out = append(*out, fmt.Sprintf("%s is %s here, %s at generator 0", path, mine, theirs))
	}
}
