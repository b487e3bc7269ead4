package taskspec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The constants of codes_gen.go are the catalogue, as the descriptors give
// it: one for every code Codes lists, in its order, each documented with
// its entry's title.
func TestCodeConstantsAreTheCatalogue(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes_gen.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []Code
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" || len(vs.Names) != 1 {
				t.Fatalf("%v: a constant that is not one Code", vs.Names)
			}
			text, err := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
			if err != nil {
				t.Fatal(err)
			}
			code := Code(text)
			got = append(got, code)
			k, ok := LookupProblem(code)
			name := vs.Names[0].Name
			doc := strings.Join(strings.Fields(vs.Doc.Text()), " ")
			switch {
			case !ok:
				t.Errorf("%s = %s is not in the catalogue", name, code)
			case doc != name+" ("+text+"): "+k.Title+".":
				t.Errorf("%s: doc %q, title %q", name, doc, k.Title)
			case !strings.EqualFold(strings.TrimPrefix(name, "Code"), strings.ReplaceAll(k.Name, "_", "")):
				t.Errorf("%s names %s (%s)", name, code, k.Name)
			}
		}
	}
	if want := Codes(); !slices.Equal(got, want) {
		t.Errorf("codes_gen.go has %v, the catalogue %v", got, want)
	}
}
