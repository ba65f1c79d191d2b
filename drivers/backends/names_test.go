package backends_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
)

// nameFree are the folders outside drivers/ allowed to compare a string
// with a backend's name, and why: compose's "postgres" and "etcd" are its
// servers and a URL scheme, not backends.
var nameFree = []string{"compose"}

// TestNoBackendNameSwitches: outside drivers/, no Go file compares a
// string literal equal to a registered backend's name (==, != or a switch
// case). Callers ask the descriptor (Backend.On, Clients, Muxes, Servers)
// instead, so adding a backend touches its own file and nothing else.
func TestNoBackendNameSwitches(t *testing.T) {
	root := filepath.Join("..", "..")
	names := backends.Names()
	isName := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && slices.Contains(names, s)
	}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "drivers" || slices.Contains(nameFree, rel) || d.Name() == "testdata" || d.Name() == "vendor" ||
				strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			var lits []ast.Expr
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					lits = []ast.Expr{n.X, n.Y}
				}
			case *ast.CaseClause:
				lits = n.List
			}
			for _, e := range lits {
				if name, ok := isName(e); ok {
					t.Errorf("%s: compares with backend name %q: ask backends.Lookup's descriptor instead", fset.Position(e.Pos()), name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("scanned %d Go files under %s: the walk missed the tree", files, root)
	}
}
