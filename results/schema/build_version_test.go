package schema

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name    string
		version string
		set     []debug.BuildSetting
		want    string
	}{
		{"no vcs", "", nil, "(devel) (no VCS revision), go1.x"},
		{"tagged", "v1.2.3", set("vcs.revision", "abc", "vcs.time", "2026-01-02T03:04:05Z"), "v1.2.3 (revision abc, 2026-01-02T03:04:05Z), go1.x"},
		{"modified", "", set("vcs.revision", "abc", "vcs.time", "t", "vcs.modified", "true"), "(devel) (revision abc, t, modified), go1.x"},
		{"clean", "", set("vcs.revision", "abc", "vcs.time", "t", "vcs.modified", "false"), "(devel) (revision abc, t), go1.x"},
	} {
		bi := &debug.BuildInfo{GoVersion: "go1.x", Main: debug.Module{Version: c.version}, Settings: c.set}
		if got := buildVersion(bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if BuildVersion() == "" {
		t.Error("empty")
	}
}
