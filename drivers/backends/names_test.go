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

// nameFree are the folders allowed to compare a string
// with a backend's name, and why: compose's "postgres" and "etcd" are its
// servers and a URL scheme, not backends.
var nameFree = []string{"compose"}

// TestNoBackendNameSwitches: outside the backends' own packages (those
// calling backends.Register), no Go file compares a string literal equal
// to a registered backend's name (==, != or a switch case). Callers ask
// the descriptor (Backend.On, Clients, Muxes, Servers) instead, so adding
// a backend touches its own package and one line of drivers/backends/all.
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
	var owners []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if slices.Contains(nameFree, rel) || d.Name() == "testdata" || d.Name() == "vendor" ||
				strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			if registers(t, path) {
				owners = append(owners, rel)
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
	if len(owners) < 5 {
		t.Fatalf("found %d backend packages (%v): the walk missed them", len(owners), owners)
	}
}

// registers reports whether the package in dir registers a backend: a
// non-test file calls backends.Register.
func registers(t *testing.T, dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Register" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "backends" {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
