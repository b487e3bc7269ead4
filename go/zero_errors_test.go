package taskspec

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// zeroErrors holds the zero value of every exported error type.
var zeroErrors = map[string]error{
	"ArtifactPathError": &ArtifactPathError{},
	"DecodeError":       &DecodeError{},
	"EnumError":         &EnumError{},
	"FormatError":       &FormatError{},
	"StrictError":       &StrictError{},
	"ValidationError":   &ValidationError{},
	"WriteError":        &WriteError{},
}

func TestTheZeroValueOfEveryErrorTypeIsUsable(t *testing.T) {
	// Every exported type with an Error method is in zeroErrors.
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name == "taskspec" {
				files = append(files, f)
			}
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/taskspec/taskspec/go", doc.AllMethods)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range pkg.Types {
		for _, m := range typ.Methods {
			if m.Name == "Error" && zeroErrors[typ.Name] == nil {
				t.Errorf("%s is an error type with no zero value in zeroErrors", typ.Name)
			}
		}
	}

	for name, zero := range zeroErrors {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			text := zero.Error()
			if !strings.HasPrefix(text, errPrefix) || len(text) <= len(errPrefix) {
				t.Errorf("%s{}.Error() = %q", name, text)
			}
			if u, ok := zero.(interface{ Unwrap() error }); ok {
				if inner := u.Unwrap(); inner != nil {
					t.Errorf("%s{}.Unwrap() = %v", name, inner)
				}
			}
		}()
	}
}
