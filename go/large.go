package taskspec

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
)

// largeMapping is the number of entries past which a mapping is kept from
// yaml.v3's decoder. Its duplicate-key check compares every pair of keys,
// so a mapping of 40,000 keys costs seconds; this package finds duplicates
// in one pass instead, and decodes such a mapping itself. No sidecar comes
// near the bound, so every ordinary document is decoded by yaml.v3 alone.
const largeMapping = 1000

// mirrorType is the Go package's struct a document decodes into; its
// types name themselves in yaml.v3's messages ("eval.TaskSpec").
var mirrorType = reflect.TypeOf(eval.TaskSpec{})

// fieldType returns the type of the value under the YAML key name in the
// struct typ, with pointers and slices looked through: the type a mapping
// under that key decodes into.
func fieldType(typ reflect.Type, name string) reflect.Type {
	if typ == nil || typ.Kind() != reflect.Struct {
		return nil
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if yamlName(f) != name {
			continue
		}
		t := f.Type
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		return t
	}
	return nil
}

// largeMappings are the mappings of a document with more than largeMapping
// entries, in the order the walk met them.
type largeMappings struct {
	nodes []*yaml.Node
	paths []string
	types []reflect.Type
	seen  map[*yaml.Node]bool
}

func (w *walker) noteLarge(n *yaml.Node, path string, typ reflect.Type) {
	if w.large == nil {
		w.large = &largeMappings{seen: make(map[*yaml.Node]bool)}
	}
	if w.large.seen[n] {
		return // reached again through an alias
	}
	w.large.seen[n] = true
	w.large.nodes = append(w.large.nodes, n)
	w.large.paths = append(w.large.paths, path)
	w.large.types = append(w.large.types, typ)
}

// decodeMirror decodes the document into m as yaml.v3 would, keeping the
// large mappings (which check has found free of duplicates, so maps) from
// yaml.v3's decoder: they are detached while it runs and decoded here,
// entry by entry, with yaml.v3's errors for entries it would refuse.
func (w *walker) decodeMirror(doc *yaml.Node, m *eval.TaskSpec) error {
	if w.large == nil {
		return doc.Decode(m)
	}
	kept := make([][]*yaml.Node, len(w.large.nodes))
	for i, n := range w.large.nodes {
		kept[i], n.Content = n.Content, nil
	}
	err := doc.Decode(m)
	for i, n := range w.large.nodes {
		n.Content = kept[i]
	}
	if err != nil {
		return err
	}
	var errs []string
	for i, n := range w.large.nodes {
		target, ok := mirrorField(reflect.ValueOf(m).Elem(), w.large.paths[i])
		if !ok || target.Kind() != reflect.Map {
			continue
		}
		if target.IsNil() {
			target.Set(reflect.MakeMapWithSize(target.Type(), len(n.Content)/2))
		}
		for j := 0; j+1 < len(n.Content); j += 2 {
			key := reflect.New(target.Type().Key())
			value := reflect.New(target.Type().Elem())
			kerr, verr := n.Content[j].Decode(key.Interface()), n.Content[j+1].Decode(value.Interface())
			for _, e := range []error{kerr, verr} {
				if te, ok := e.(*yaml.TypeError); ok {
					errs = append(errs, te.Errors...)
				} else if e != nil {
					return e
				}
			}
			target.SetMapIndex(key.Elem(), value.Elem())
		}
	}
	if len(errs) > 0 {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

// mirrorField returns the field of v at path ("a.b[2].c"), following
// pointers, and whether it is there.
func mirrorField(v reflect.Value, path string) (reflect.Value, bool) {
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
			if yamlName(v.Type().Field(i)) == name {
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
