package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/wording"
)

// The generated tables of walk_gen.go are checked against the structs, by
// reflection: the keys each mapping takes and the map fields the decoder
// fills itself.

// refYamlName is the YAML key of a struct field of the mirror.
func refYamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func refMirrorField(v reflect.Value, path string) (reflect.Value, bool) {
	for _, part := range strings.Split(path, ".") {
		name, index, hasIndex := strings.Cut(part, "[")
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return v, false
		}
		found := false
		for i := 0; i < v.NumField(); i++ {
			if refYamlName(v.Type().Field(i)) == name {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return v, false
		}
		if hasIndex {
			at, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err != nil || v.Kind() != reflect.Slice || at >= v.Len() {
				return v, false
			}
			v = v.Index(at)
		}
	}
	return v, true
}

// refMappingType is the struct a mapping at path (indexes left out)
// decodes into, found as the walker found it, key by key.
func refMappingType(path string) reflect.Type {
	typ := reflect.TypeOf(eval.TaskSpec{})
	if path == "" {
		return typ
	}
	for _, name := range strings.Split(path, ".") {
		if typ.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Type
		for i := 0; i < typ.NumField(); i++ {
			if refYamlName(typ.Field(i)) == name {
				next = typ.Field(i).Type
			}
		}
		if next == nil {
			return nil
		}
		for next.Kind() == reflect.Pointer || next.Kind() == reflect.Slice {
			next = next.Elem()
		}
		typ = next
	}
	return typ
}

// mirrorPaths are the paths of every field of m, with and without list
// indexes past either end, and some that name nothing.
func mirrorPaths(m *eval.TaskSpec) []string {
	paths := []string{"", ".", "nothing", "task_id[0]", "[0]", "a.b"}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v = reflect.New(v.Type().Elem())
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			sub := wording.Path(path, refYamlName(v.Type().Field(i)))
			f := v.Field(i)
			paths = append(paths, sub, sub+"[0]", sub+".x", sub+"[x]")
			if f.Kind() == reflect.Slice {
				for j := 0; j <= f.Len(); j++ {
					paths = append(paths, fmt.Sprintf("%s[%d]", sub, j))
					if f.Type().Elem().Kind() == reflect.Struct {
						item := reflect.New(f.Type().Elem()).Elem()
						if j < f.Len() {
							item = f.Index(j)
						}
						walk(item, fmt.Sprintf("%s[%d]", sub, j))
					}
				}
				continue
			}
			walk(f, sub)
		}
	}
	walk(reflect.ValueOf(m), "")
	return paths
}

// The keys the walker offers for an unknown key are the struct's, in
// order, at every mapping a document can hold.
func TestMirrorKeysAreTheStructFields(t *testing.T) {
	var s eval.TaskSpec
	for _, path := range mirrorPaths(&s) {
		typ := refMappingType(withoutIndexes(path))
		if typ == nil || typ.Kind() != reflect.Struct {
			if got := mirrorKeys(path); got != nil {
				t.Errorf("mirrorKeys(%q) = %q for no mapping", path, got)
			}
			continue
		}
		var want []string
		for i := 0; i < typ.NumField(); i++ {
			want = append(want, refYamlName(typ.Field(i)))
		}
		if got := mirrorKeys(path); !reflect.DeepEqual(got, want) {
			t.Errorf("mirrorKeys(%q) = %q, want %q", path, got, want)
		}
	}
}

// intMapAt finds the map field at every path of the mirrors of the
// canonical vectors, and of an empty one, as reflection finds it, and
// nothing where reflection finds none.
func TestIntMapAtFindsTheMapFields(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "tests", "conformance", "vectors", "canonical", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no canonical vectors: %v", err)
	}
	mirrors := []*eval.TaskSpec{{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m eval.TaskSpec
		if yaml.Unmarshal(data, &m) == nil {
			mirrors = append(mirrors, &m)
		}
	}
	for i, m := range mirrors {
		root := reflect.ValueOf(m).Elem()
		for _, path := range mirrorPaths(m) {
			target, ok := refMirrorField(root, path)
			var want *map[string]int
			if ok && target.Kind() == reflect.Map {
				want = target.Addr().Interface().(*map[string]int)
			}
			if got := intMapAt(m, path); got != want {
				t.Errorf("mirror %d: intMapAt(%q) = %p, reflection finds %p", i, path, got, want)
			}
		}
	}
}
