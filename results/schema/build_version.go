package schema

import (
	"fmt"
	"runtime/debug"
)

// BuildVersion is the module version and VCS revision the running binary
// was built from, as runtime/debug.ReadBuildInfo reports them (go build
// stamps both), with the Go version: what lockbench --version prints.
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build info)"
	}
	return buildVersion(bi)
}

func buildVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev == "" {
		return fmt.Sprintf("%s (no VCS revision), %s", v, bi.GoVersion)
	}
	return fmt.Sprintf("%s (revision %s, %s%s), %s", v, rev, when, dirty, bi.GoVersion)
}
