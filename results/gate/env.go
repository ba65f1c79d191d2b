package gate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// Env lists how base's environment differs from cur's in what shapes the
// numbers besides the code under test: core count, CPU model, kernel, OS
// and architecture, the servers' versions, and the run config. A fact one
// side did not record is not compared. Empty when alike.
func Env(cur, base *schema.Summary) []string {
	var out []string
	diff := func(what, c, b string) {
		if c != "" && b != "" && c != b {
			out = append(out, fmt.Sprintf("%s %s vs %s", what, b, c))
		}
	}
	ch, bh := cur.Host, base.Host
	if ch.CPUs > 0 && bh.CPUs > 0 && ch.CPUs != bh.CPUs {
		out = append(out, fmt.Sprintf("cpus %d vs %d", bh.CPUs, ch.CPUs))
	}
	diff("cpu", ch.CPUModel, bh.CPUModel)
	diff("kernel", ch.Kernel, bh.Kernel)
	diff("os/arch", ch.OS+"/"+ch.Arch, bh.OS+"/"+bh.Arch)
	diff("servers", serverVersions(cur), serverVersions(base))
	if len(cur.Config) > 0 && len(base.Config) > 0 && !rundir.SameConfig(cur.Config, base.Config) {
		out = append(out, "config differs")
	}
	return out
}

// serverVersions are the distinct kind/version pairs of s's servers.
func serverVersions(s *schema.Summary) string {
	set := map[string]bool{}
	for _, sv := range s.Servers {
		if sv.Version != "" {
			set[sv.Kind+" "+sv.Version] = true
		}
	}
	var out []string
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
