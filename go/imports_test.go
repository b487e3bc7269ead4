package taskspec

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path: an import under it is a package of the
// Go library, whose files the import check reads too.
const module = "github.com/taskspec/taskspec/go"

// reflectImports reads the imports of every non-test file of the package
// in directory root and of every package of the module it imports,
// directly or through another, following the import graph. It returns the
// files read, by their path from root, and those of them that import
// reflect.
func reflectImports(t *testing.T, root string) (checked, offenders []string) {
	t.Helper()
	fset := token.NewFileSet()
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, name)
			rel = filepath.ToSlash(rel)
			checked = append(checked, rel)
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path == "reflect" {
					offenders = append(offenders, rel)
				}
				if sub, ok := strings.CutPrefix(path, module+"/"); ok {
					visit(sub)
				}
			}
		}
	}
	visit(".")
	return checked, offenders
}

// The files on the path of ParseYAML and MarshalYAML, every other file of
// the package and every file of the internal packages it imports use the
// generated typed code: none imports reflect.
func TestNoFileOnTheParseAndMarshalPathImportsReflect(t *testing.T) {
	checked, offenders := reflectImports(t, ".")
	for _, name := range offenders {
		t.Errorf("%s imports reflect", name)
	}
	for _, name := range []string{"convert.go", "decode.go", "marshal.go", "mirror_gen.go", "writable.go",
		"problems.go", "formats.go", "internal/eval/eval.go", "internal/jsonread/read.go", "internal/source/source.go", "internal/wording/wording.go", "internal/budget/budget.go",
		"internal/yamlscan/yamlscan.go", "internal/walk/walk.go", "internal/walk/read.go", "internal/walk/walk_gen.go"} {
		if !slices.Contains(checked, name) {
			t.Errorf("%s was not checked", name)
		}
	}
}

// The check follows the imports: a file that imports reflect in a package
// of the module that the package imports through another is found.
func TestTheImportCheckFindsReflectInAnImportedPackage(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("top.go", "package top\n\nimport _ \""+module+"/internal/a\"\n")
	write("internal/a/a.go", "package a\n\nimport _ \""+module+"/internal/b\"\n")
	write("internal/b/b.go", "package b\n\nimport _ \"reflect\"\n")
	write("internal/b/b_test.go", "package b\n\nimport _ \"reflect\"\n")
	write("internal/c/c.go", "package c\n\nimport _ \"reflect\"\n") // imported by nothing
	checked, offenders := reflectImports(t, root)
	if want := []string{"top.go", "internal/a/a.go", "internal/b/b.go"}; !slices.Equal(checked, want) {
		t.Errorf("checked %q, want %q", checked, want)
	}
	if want := []string{"internal/b/b.go"}; !slices.Equal(offenders, want) {
		t.Errorf("offenders %q, want %q", offenders, want)
	}
}

// The core links no gRPC, net/http or TLS: a program that only reads and
// writes specs pays for none of them. The GeneratorService lives in the
// taskspecgrpc module.
func TestTheCoreLinksNoGRPCOrNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "go.yaml.in/yaml/v3") || !slices.Contains(deps, "google.golang.org/protobuf/proto") {
		t.Fatalf("go list -deps does not list the core's own dependencies: %v", deps)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "google.golang.org/grpc") || dep == "net/http" || dep == "crypto/tls" ||
			strings.HasPrefix(dep, "golang.org/x/net") {
			t.Errorf("the core package depends on %s", dep)
		}
	}
}
