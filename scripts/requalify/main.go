// Command requalify follows exported names that moved out of one package
// into others: every `old.Name` in the module becomes `new.Name`, names
// used unqualified inside a package they no longer belong to are
// qualified, and imports are added and dropped to match. It reads the new
// packages' source to learn which name went where, so a move is: git mv
// the files, fix their package clauses, run requalify.
//
//	go run ./scripts/requalify -old github.com/x/m/results \
//	    -new github.com/x/m/results/schema,github.com/x/m/results/record \
//	    -rename FieldError=github.com/x/m/results/fielderr.Error .
//
// It parses and rewrites text only (no type checking); go build shows
// what it could not know.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// target is where a name lives now.
type target struct {
	pkg, importPath, name string
}

func main() {
	old := flag.String("old", "", "import path the names moved out of")
	news := flag.String("new", "", "comma-separated import paths of the packages they moved to")
	renames := flag.String("rename", "", "comma-separated Name=importpath.NewName for names that changed too")
	flag.Parse()
	if *old == "" || *news == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: requalify -old PATH -new PATH,... [-rename N=PATH.M,...] ROOT")
		os.Exit(2)
	}
	root := flag.Arg(0)
	module, err := modulePath(root)
	check(err)
	moved := map[string]target{}
	dirOf := map[string]bool{} // the new packages' import paths
	for _, ip := range strings.Split(*news, ",") {
		dir := filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(ip, module), "/"))
		pkg, names, err := exported(dir)
		check(err)
		dirOf[ip] = true
		for _, n := range names {
			if t, dup := moved[n]; dup {
				check(fmt.Errorf("%s is exported by both %s and %s", n, t.importPath, ip))
			}
			moved[n] = target{pkg, ip, n}
		}
	}
	if *renames != "" {
		for _, r := range strings.Split(*renames, ",") {
			from, to, ok := strings.Cut(r, "=")
			dot := strings.LastIndex(to, ".")
			if !ok || dot < 0 {
				check(fmt.Errorf("-rename %q: want Name=importpath.NewName", r))
			}
			ip := to[:dot]
			moved[from] = target{path.Base(ip), ip, to[dot+1:]}
		}
	}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		ip := module
		if rel != "." {
			ip += "/" + filepath.ToSlash(rel)
		}
		return rewrite(p, module, ip, *old, moved, dirOf)
	})
	check(err)
}

// rewrite qualifies the moved names file p uses; ip is its package's
// import path.
func rewrite(p, module, ip, old string, moved map[string]target, newPaths map[string]bool) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
	if err != nil {
		return err
	}
	own := ip
	if strings.HasSuffix(f.Name.Name, "_test") {
		own = "" // an external test package imports its own package too
	}
	oldName := ""
	for _, is := range f.Imports {
		if strings.Trim(is.Path.Value, `"`) == old {
			oldName = path.Base(old)
			if is.Name != nil {
				oldName = is.Name.Name
			}
		}
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	need := map[string]bool{}
	oldUsed := false
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			x, ok := n.X.(*ast.Ident)
			if !ok || oldName == "" || x.Name != oldName || !unresolved[x] {
				return true
			}
			t, ok := moved[n.Sel.Name]
			if !ok {
				oldUsed = true
				return false
			}
			edits = append(edits, edit{fset.Position(x.Pos()).Offset, fset.Position(n.Sel.End()).Offset, qualify(t, own)})
			if t.importPath != own {
				need[t.importPath] = true
			}
			return false
		case *ast.Ident:
			// A name declared in another file of the package is
			// unresolved too: only the moved packages' own files are
			// qualified.
			if !unresolved[n] || own == "" || !newPaths[own] {
				return true
			}
			t, ok := moved[n.Name]
			if !ok || t.importPath == own {
				return true
			}
			edits = append(edits, edit{fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset, qualify(t, "")})
			need[t.importPath] = true
		}
		return true
	})
	if len(edits) == 0 {
		return nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := src
	for _, e := range edits {
		out = append(append(append([]byte{}, out[:e.from]...), e.text...), out[e.to:]...)
	}
	if !oldUsed && oldName != "" {
		out = dropImport(out, old)
	}
	var paths []string
	for p := range need {
		if !imports(f, p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out = addImports(out, paths, module)
	fmted, err := format.Source(out)
	if err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	return os.WriteFile(p, fmted, 0o644)
}

func qualify(t target, from string) string {
	if t.importPath == from {
		return t.name
	}
	return t.pkg + "." + t.name
}

func imports(f *ast.File, p string) bool {
	for _, is := range f.Imports {
		if strings.Trim(is.Path.Value, `"`) == p {
			return true
		}
	}
	return false
}

func dropImport(src []byte, p string) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == `"`+p+`"` || t == `import "`+p+`"` {
			continue
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// addImports puts paths into the file's first import block, beside the
// module's own imports (or in a group of their own after the others), or
// into a new block after the package clause.
func addImports(src []byte, paths []string, module string) []byte {
	if len(paths) == 0 {
		return src
	}
	var spec strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&spec, "\t%q\n", p)
	}
	insert := func(at int, s string) []byte {
		return append(append(append([]byte{}, src[:at]...), s...), src[at:]...)
	}
	if i := bytes.Index(src, []byte("\nimport (\n")); i >= 0 {
		start := i + len("\nimport (\n")
		end := start + bytes.Index(src[start:], []byte("\n)\n")) + 1
		block := src[start:end]
		if j := bytes.Index(block, []byte("\t\""+module+"/")); j >= 0 {
			return insert(start+j, spec.String())
		}
		return insert(end, "\n"+spec.String())
	}
	if i := bytes.Index(src, []byte("\nimport ")); i >= 0 {
		eol := i + 1 + bytes.IndexByte(src[i+1:], '\n') + 1
		line := strings.TrimSpace(strings.TrimPrefix(string(src[i+1:eol]), "import "))
		sep := "\n"
		if !strings.Contains(line, module+"/") {
			sep = "\n\n"
		}
		return append(append(append([]byte{}, src[:i+1]...), "import (\n\t"+line+sep+spec.String()+")\n"...), src[eol:]...)
	}
	i := bytes.Index(src, []byte("\npackage "))
	if !bytes.HasPrefix(src, []byte("package ")) && i >= 0 {
		i++
	} else {
		i = 0
	}
	eol := i + bytes.IndexByte(src[i:], '\n') + 1
	return insert(eol, "\nimport (\n"+spec.String()+")\n")
}

// exported lists the package-level exported names of dir's non-test files.
func exported(dir string) (string, []string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return "", nil, err
	}
	if len(pkgs) != 1 {
		return "", nil, fmt.Errorf("%s: %d packages", dir, len(pkgs))
	}
	var name string
	var names []string
	for n, p := range pkgs {
		name = n
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.IsExported() {
						names = append(names, d.Name.Name)
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								names = append(names, s.Name.Name)
							}
						case *ast.ValueSpec:
							for _, id := range s.Names {
								if id.IsExported() {
									names = append(names, id.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	return name, names, nil
}

func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			return strings.TrimSpace(m), nil
		}
	}
	return "", fmt.Errorf("go.mod: no module line")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "requalify:", err)
		os.Exit(1)
	}
}
