package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/lockbench/lockbench"

// graph is every package pattern's dependencies (tests left out), each
// with what it imports: `go list -deps`.
func graph(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			g[f[0]] = f[1:]
		}
	}
	return g
}

// TestLibrariesStayLight: drivers and compose depend on the results leaves
// (schema, fielderr, redact and what they use), never on the recorder, the
// statistics, the renderers or their libraries. html/template is allowed
// only where gRPC's request tracing brings it in (the etcd client).
func TestLibrariesStayLight(t *testing.T) {
	leaves := map[string]bool{
		module + "/results/schema":           true,
		module + "/results/fielderr":         true,
		module + "/results/redact":           true,
		module + "/results/internal/outpath": true,
	}
	heavy := []string{
		"github.com/olekukonko/tablewriter",
		"github.com/HdrHistogram/hdrhistogram-go",
	}
	g := graph(t, "./drivers/...", "./compose/...")
	for pkg, imports := range g {
		if strings.HasPrefix(pkg, module+"/results") && !leaves[pkg] {
			t.Errorf("drivers/compose depend on %s", pkg)
		}
		for _, h := range heavy {
			if pkg == h || strings.HasPrefix(pkg, h+"/") {
				t.Errorf("drivers/compose depend on %s", pkg)
			}
		}
		for _, imp := range imports {
			if imp == "html/template" && pkg != "golang.org/x/net/trace" {
				t.Errorf("%s imports html/template", pkg)
			}
		}
	}
}

// below lists, for each layer of the project, the layers above it, which
// it must not import: cmd → workloads → compose → drivers → multiplex;
// results (the schema, recording, statistics, rendering) imports none of
// them. A package under LAYER/.../internal/ is LAYER's.
var below = []struct {
	layer string
	above []string
}{
	{"multiplex", []string{"drivers", "compose", "workloads", "cmd", "results"}},
	{"results", []string{"multiplex", "drivers", "compose", "workloads", "cmd"}},
	{"drivers", []string{"compose", "workloads", "cmd"}},
	{"compose", []string{"workloads", "cmd"}},
	{"workloads", []string{"cmd"}},
	// The module's own internal/ (test support, process plumbing, the
	// flag tags) is the ground floor: every layer may use it, it uses none.
	{"internal", []string{"multiplex", "results", "drivers", "compose", "workloads", "cmd"}},
}

// in reports whether pkg is layer's (the folder or below it).
func in(pkg, layer string) bool {
	p := module + "/" + layer
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}

// arrowsBackUp are the imports from a layer to one above it.
func arrowsBackUp(g map[string][]string) []string {
	var bad []string
	for pkg, imports := range g {
		for _, l := range below {
			if !in(pkg, l.layer) {
				continue
			}
			for _, imp := range imports {
				for _, up := range l.above {
					if in(imp, up) {
						bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s)", pkg, l.layer, imp, up))
					}
				}
			}
		}
	}
	return bad
}

// mirrors are the packages of the root internal/ that mirror a layer
// (internal/results/..., internal/compose/...): a package a layer's code
// alone uses lives in that layer's internal/.
func mirrors(g map[string][]string) []string {
	var bad []string
	for pkg := range g {
		for _, l := range []string{"cmd", "workloads", "compose", "drivers", "multiplex", "results"} {
			if in(pkg, "internal/"+l) {
				bad = append(bad, fmt.Sprintf("%s mirrors the layer %s: move it to %s/internal/", pkg, l, l))
			}
		}
	}
	return bad
}

// mutual are the pairs of folders that import each other (an internal
// half counted as its folder's), neither inside the other.
func mutual(g map[string][]string) []string {
	folder := func(pkg string) string {
		p := strings.TrimPrefix(pkg, module+"/")
		if i := strings.Index(p, "/internal/"); i >= 0 {
			p = p[:i]
		}
		return p
	}
	edges := map[[2]string]bool{}
	for pkg, imports := range g {
		if !strings.HasPrefix(pkg, module+"/") {
			continue
		}
		for _, imp := range imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			a, b := folder(pkg), folder(imp)
			if a != b && !strings.HasPrefix(a, b+"/") && !strings.HasPrefix(b, a+"/") {
				edges[[2]string{a, b}] = true
			}
		}
	}
	var bad []string
	for e := range edges {
		if edges[[2]string{e[1], e[0]}] && e[0] < e[1] {
			bad = append(bad, fmt.Sprintf("%s and %s import each other", e[0], e[1]))
		}
	}
	return bad
}

// TestLayers: the project's own imports break none of the rules (tests
// left out: a test may start servers from any layer).
func TestLayers(t *testing.T) {
	g := graph(t, "./...")
	for _, check := range []func(map[string][]string) []string{arrowsBackUp, mirrors, mutual} {
		for _, bad := range check(g) {
			t.Error(bad)
		}
	}
}

// TestRulesCatchViolations: each rule finds the violation it is for in a
// graph that has one, and nothing in one that has none.
func TestRulesCatchViolations(t *testing.T) {
	p := func(s string) string { return module + "/" + s }
	ok := map[string][]string{
		p("cmd/lockbench"):            {p("workloads/lab"), p("results/output")},
		p("workloads/lab"):            {p("compose"), p("results/schema"), p("internal/flagtag")},
		p("compose"):                  {p("drivers"), p("compose/internal/etcdmember")},
		p("results/schema"):           {p("results/internal/outpath")},
		p("results/internal/outpath"): nil,
	}
	for name, tc := range map[string]struct {
		add   map[string][]string
		check func(map[string][]string) []string
	}{
		"arrow back up":         {map[string][]string{p("multiplex"): {p("drivers")}}, arrowsBackUp},
		"internal imports up":   {map[string][]string{p("internal/procs"): {p("compose")}}, arrowsBackUp},
		"a mirror":              {map[string][]string{p("internal/results/gate"): nil}, mirrors},
		"two folders, mutually": {map[string][]string{p("results/render"): {p("results/gate")}, p("results/gate"): {p("results/render")}}, mutual},
		"through internal halves": {map[string][]string{
			p("results/stats"): {p("results/record/internal/x")}, p("results/record"): {p("results/stats/internal/y")}}, mutual},
	} {
		if bad := tc.check(ok); len(bad) > 0 {
			t.Errorf("%s: flags a clean graph: %v", name, bad)
		}
		g := maps.Clone(ok)
		maps.Copy(g, tc.add)
		if bad := tc.check(g); len(bad) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
}
