package taskspec_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestEveryExportedNameHasAnExample holds the package to its doc: every
// exported function, type and method has an Example that go test runs, or
// is named in the package doc's list of groups shown elsewhere.
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
	groups := pkg.Doc[strings.Index(pkg.Doc, "Every exported function and type has an Example"):]
	has := func(examples []*doc.Example, suffix string) bool {
		for _, ex := range examples {
			if ex.Suffix == suffix || suffix == "" {
				return true
			}
		}
		return false
	}
	check := func(name string, examples []*doc.Example) {
		if !has(examples, "") && !strings.Contains(groups, name) {
			t.Errorf("%s has no Example and is in no group of the package doc", name)
		}
	}
	for _, f := range pkg.Funcs {
		check(f.Name, f.Examples)
	}
	for _, typ := range pkg.Types {
		check(typ.Name, typ.Examples)
		for _, f := range typ.Funcs {
			check(f.Name, f.Examples)
		}
		for _, m := range typ.Methods {
			if !has(m.Examples, "") && !strings.Contains(groups, m.Name) && !strings.Contains(groups, typ.Name+"'s "+m.Name) {
				t.Errorf("%s.%s has no Example and is in no group of the package doc", typ.Name, m.Name)
			}
		}
		for _, c := range typ.Consts {
			for _, name := range c.Names {
				check(name, nil)
			}
		}
	}
	for _, c := range append(pkg.Consts, pkg.Vars...) {
		for _, name := range c.Names {
			check(name, nil)
		}
	}
}
