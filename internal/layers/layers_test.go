package layers

import (
	"bufio"
	"bytes"
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
// (schema, fielderr and what they use), never on the recorder, the
// statistics, the renderers or their libraries. html/template is allowed
// only where gRPC's request tracing brings it in (the etcd client).
func TestLibrariesStayLight(t *testing.T) {
	leaves := map[string]bool{
		module + "/results/schema":           true,
		module + "/results/fielderr":         true,
		module + "/internal/results/redact":  true,
		module + "/internal/results/outpath": true,
	}
	heavy := []string{
		"github.com/olekukonko/tablewriter",
		"github.com/HdrHistogram/hdrhistogram-go",
	}
	g := graph(t, "./drivers/...", "./compose/...")
	for pkg, imports := range g {
		if results := strings.Replace(pkg, module+"/internal/", module+"/", 1); strings.HasPrefix(results, module+"/results") && !leaves[pkg] {
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
// results (the schema, recording, statistics) imports none of them.
var below = []struct {
	layer string
	above []string
}{
	{"multiplex", []string{"drivers", "compose", "workloads", "cmd", "results"}},
	{"results", []string{"multiplex", "drivers", "compose", "workloads", "cmd"}},
	{"drivers", []string{"compose", "workloads", "cmd"}},
	{"compose", []string{"workloads", "cmd"}},
	{"workloads", []string{"cmd"}},
}

// TestNoArrowRunsBackUp: no package imports one from a layer above its own
// (tests left out: a test may start servers from any layer). A package
// under internal/LAYER/ belongs to LAYER: internal/compose/delayline is
// compose's machinery, kept out of the public API.
func TestNoArrowRunsBackUp(t *testing.T) {
	g := graph(t, "./...")
	in := func(pkg, layer string) bool {
		pkg = strings.Replace(pkg, module+"/internal/", module+"/", 1)
		p := module + "/" + layer
		return pkg == p || strings.HasPrefix(pkg, p+"/")
	}
	for pkg, imports := range g {
		for _, l := range below {
			if !in(pkg, l.layer) {
				continue
			}
			for _, imp := range imports {
				for _, up := range l.above {
					if in(imp, up) {
						t.Errorf("%s (%s) imports %s (%s)", pkg, l.layer, imp, up)
					}
				}
			}
		}
	}
}
