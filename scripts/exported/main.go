// Command exported counts the exported names of lockbench's public
// packages: every package outside internal/ directories that is not a
// command, test files left out. A name is an exported top-level const,
// var, type or func, or an exported method or field of an exported type
// (what go doc lists). Run from the repository root:
//
//	go run ./scripts/exported          # total and per package, largest first
//	go run ./scripts/exported -total   # the total alone
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// members: count the members of exported types too.
var members bool

func main() {
	total := flag.Bool("total", false, "print the total only")
	flag.BoolVar(&members, "members", false, "count exported methods, fields and interface methods too")
	flag.Parse()
	counts, err := count(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "exported:", err)
		os.Exit(1)
	}
	sum := 0
	pkgs := make([]string, 0, len(counts))
	for p, n := range counts {
		sum += n
		pkgs = append(pkgs, p)
	}
	if *total {
		fmt.Println(sum)
		return
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if counts[pkgs[i]] != counts[pkgs[j]] {
			return counts[pkgs[i]] > counts[pkgs[j]]
		}
		return pkgs[i] < pkgs[j]
	})
	fmt.Printf("%d exported names in %d public packages\n", sum, len(pkgs))
	for _, p := range pkgs {
		fmt.Printf("%5d  %s\n", counts[p], p)
	}
}

// count maps each public package directory under root to its exported
// names.
func count(root string) (map[string]int, error) {
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "internal" || name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), path, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			return err
		}
		for pname, p := range pkgs {
			if pname == "main" {
				continue
			}
			counts[filepath.ToSlash(path)] += exported(p)
		}
		return nil
	})
	return counts, err
}

// exported counts p's exported names.
func exported(p *ast.Package) int {
	n := 0
	for _, f := range p.Files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil || members && receiverExported(d.Recv) {
					n++
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								n++
							}
						}
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						n++
						if members {
							n += exportedMembers(s.Type)
						}
					}
				}
			}
		}
	}
	return n
}

// exportedMembers counts a struct's exported fields or an interface's
// exported methods.
func exportedMembers(t ast.Expr) int {
	var list *ast.FieldList
	switch x := t.(type) {
	case *ast.StructType:
		list = x.Fields
	case *ast.InterfaceType:
		list = x.Methods
	default:
		return 0
	}
	n := 0
	for _, f := range list.List {
		for _, id := range f.Names {
			if id.IsExported() {
				n++
			}
		}
	}
	return n
}

// receiverExported is whether a method's receiver type is exported.
func receiverExported(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
