package taskspec_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestEveryExportedNameHasAnExample holds the package to its examples:
// every exported function, type and method has an Example of its own, and
// every exported constant and variable, which go doc cannot attach an
// Example to, is used by one. Each of those Examples runs: it has an
// output comment that go test checks. The codes of the catalogue
// (codes_gen.go, constants of type Code generated one per entry) are one
// list: an Example that uses one of them covers them all.
func TestEveryExportedNameHasAnExample(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files, tests []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, f)
		} else if f.Name.Name == "taskspec" {
			files = append(files, f)
		}
	}
	pkg, err := doc.NewFromFiles(fset, append(files, tests...), "github.com/taskspec/taskspec/go")
	if err != nil {
		t.Fatal(err)
	}
	runs := func(ex *doc.Example) bool { return ex.Output != "" || ex.EmptyOutput }
	// used reports whether a running Example's code names taskspec.name.
	var all []*doc.Example
	all = append(all, pkg.Examples...)
	for _, f := range pkg.Funcs {
		all = append(all, f.Examples...)
	}
	for _, typ := range pkg.Types {
		all = append(all, typ.Examples...)
		for _, f := range typ.Funcs {
			all = append(all, f.Examples...)
		}
		for _, m := range typ.Methods {
			all = append(all, m.Examples...)
		}
	}
	used := func(name string) bool {
		for _, ex := range all {
			found := false
			ast.Inspect(ex.Code, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "taskspec" {
						found = true
					}
				}
				return !found
			})
			if found && runs(ex) {
				return true
			}
		}
		return false
	}
	check := func(name string, examples []*doc.Example) {
		for _, ex := range examples {
			if !runs(ex) {
				t.Errorf("Example for %s (suffix %q) has no output comment, so it does not run", name, ex.Suffix)
			}
		}
		if len(examples) == 0 {
			t.Errorf("%s has no Example", name)
		}
	}
	for _, ex := range pkg.Examples {
		if !runs(ex) {
			t.Errorf("package Example %q has no output comment, so it does not run", ex.Suffix)
		}
	}
	for _, f := range pkg.Funcs {
		check(f.Name, f.Examples)
	}
	var values []*doc.Value
	for _, typ := range pkg.Types {
		check(typ.Name, typ.Examples)
		if typ.Name == "Code" {
			switch {
			case len(typ.Consts) == 0:
				t.Error("the package declares no constant of type Code")
			case !slices.ContainsFunc(typ.Consts, func(c *doc.Value) bool { return slices.ContainsFunc(c.Names, used) }):
				t.Error("no running Example uses a constant of type Code")
			}
			typ.Consts = nil
		}
		for _, f := range typ.Funcs {
			check(f.Name, f.Examples)
		}
		for _, m := range typ.Methods {
			check(typ.Name+"."+m.Name, m.Examples)
		}
		values = append(values, typ.Consts...)
		values = append(values, typ.Vars...)
	}
	values = append(values, pkg.Consts...)
	values = append(values, pkg.Vars...)
	for _, c := range values {
		for _, name := range c.Names {
			if !used(name) {
				t.Errorf("%s is used by no Example that runs", name)
			}
		}
	}
}
