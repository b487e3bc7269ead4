package taskspec

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// The typed code in mirror_gen.go is checked against a reference that walks
// the descriptors and the structs by reflection: the library's own code
// before the typed code was generated. The reference matches each proto
// field to the struct field whose YAML key is its name, so a field the
// plugin failed to convert, count or walk shows up here, for any schema.

// refYamlName is the YAML key of a struct field of the mirror.
func refYamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func refStructField(v reflect.Value, name protoreflect.Name) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if refYamlName(t.Field(i)) == string(name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func refToInt(field string, v int64) (int, error) {
	if v < math.MinInt || v > math.MaxInt {
		return 0, fmt.Errorf("%s%s: %d does not fit in int on this platform", errPrefix, field, v)
	}
	return int(v), nil
}

func refToMirror(m *taskspecv1.TaskSpec) (*eval.TaskSpec, error) {
	var s eval.TaskSpec
	if err := refMessageToStruct(m.ProtoReflect(), reflect.ValueOf(&s).Elem(), ""); err != nil {
		return nil, err
	}
	return &s, nil
}

func refMessageToStruct(m protoreflect.Message, v reflect.Value, path string) error {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		out, ok := refStructField(v, fd.Name())
		if !ok {
			continue
		}
		sub := join(path, string(fd.Name()))
		switch {
		case fd.IsMap():
			entries := m.Get(fd).Map()
			if entries.Len() == 0 {
				continue
			}
			target := reflect.MakeMapWithSize(out.Type(), entries.Len())
			var err error
			entries.Range(func(k protoreflect.MapKey, val protoreflect.Value) bool {
				var item reflect.Value
				item, err = refScalarToGo(fd.MapValue(), val, out.Type().Elem(), sub+"["+k.String()+"]")
				target.SetMapIndex(reflect.ValueOf(k.String()), item)
				return err == nil
			})
			if err != nil {
				return err
			}
			out.Set(target)
		case fd.IsList():
			list := m.Get(fd).List()
			if list.Len() == 0 {
				continue
			}
			items := reflect.MakeSlice(out.Type(), list.Len(), list.Len())
			for j := 0; j < list.Len(); j++ {
				at := fmt.Sprintf("%s[%d]", sub, j)
				if fd.Kind() == protoreflect.MessageKind {
					if err := refMessageToStruct(list.Get(j).Message(), items.Index(j), at); err != nil {
						return err
					}
					continue
				}
				item, err := refScalarToGo(fd, list.Get(j), out.Type().Elem(), at)
				if err != nil {
					return err
				}
				items.Index(j).Set(item)
			}
			out.Set(items)
		case fd.Kind() == protoreflect.MessageKind:
			if out.Kind() == reflect.Pointer {
				if !m.Has(fd) {
					continue
				}
				out.Set(reflect.New(out.Type().Elem()))
				out = out.Elem()
			}
			if err := refMessageToStruct(m.Get(fd).Message(), out, sub); err != nil {
				return err
			}
		default:
			item, err := refScalarToGo(fd, m.Get(fd), out.Type(), sub)
			if err != nil {
				return err
			}
			out.Set(item)
		}
	}
	return nil
}

func refScalarToGo(fd protoreflect.FieldDescriptor, v protoreflect.Value, t reflect.Type, path string) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	switch fd.Kind() {
	case protoreflect.EnumKind:
		text, ok := enumTables[fd.Enum().FullName()].spelling(v.Enum())
		if !ok {
			return out, &EnumError{path, string(fd.Enum().FullName()), int32(v.Enum())}
		}
		out.SetString(text)
	case protoreflect.Int64Kind, protoreflect.Int32Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := refToInt(path, v.Int())
		if err != nil {
			return out, err
		}
		out.SetInt(int64(n))
	default:
		out.SetString(v.String())
	}
	return out, nil
}

func refFromMirror(s *eval.TaskSpec) (*taskspecv1.TaskSpec, error) {
	m := &taskspecv1.TaskSpec{}
	if err := refStructToMessage(reflect.ValueOf(s).Elem(), m.ProtoReflect()); err != nil {
		return nil, err
	}
	return m, nil
}

func refStructToMessage(v reflect.Value, m protoreflect.Message) error {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		in, ok := refStructField(v, fd.Name())
		if !ok {
			continue
		}
		switch {
		case fd.IsMap():
			if in.Len() == 0 {
				continue
			}
			entries := m.Mutable(fd).Map()
			iter := in.MapRange()
			for iter.Next() {
				val, err := refGoToScalar(fd.MapValue(), iter.Value(), true)
				if err != nil {
					return err
				}
				entries.Set(protoreflect.ValueOfString(iter.Key().String()).MapKey(), val)
			}
		case fd.IsList():
			if in.Len() == 0 {
				continue
			}
			list := m.Mutable(fd).List()
			for j := 0; j < in.Len(); j++ {
				if fd.Kind() == protoreflect.MessageKind {
					item := list.NewElement()
					if err := refStructToMessage(in.Index(j), item.Message()); err != nil {
						return err
					}
					list.Append(item)
					continue
				}
				val, err := refGoToScalar(fd, in.Index(j), true)
				if err != nil {
					return err
				}
				list.Append(val)
			}
		case fd.Kind() == protoreflect.MessageKind:
			if in.Kind() == reflect.Pointer {
				if in.IsNil() {
					continue
				}
				in = in.Elem()
			}
			if err := refStructToMessage(in, m.Mutable(fd).Message()); err != nil {
				return err
			}
		default:
			val, err := refGoToScalar(fd, in, false)
			if err != nil {
				return err
			}
			if val.IsValid() {
				m.Set(fd, val)
			}
		}
	}
	return nil
}

func refGoToScalar(fd protoreflect.FieldDescriptor, v reflect.Value, keepZero bool) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		table := enumTables[fd.Enum().FullName()]
		n, ok := table.number(v.String())
		if !ok {
			return protoreflect.Value{}, enumTextError(table.fieldPath(), v.String())
		}
		if n == 0 && !keepZero {
			return protoreflect.Value{}, nil
		}
		return protoreflect.ValueOfEnum(n), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		if v.Int() == 0 && !keepZero {
			return protoreflect.Value{}, nil
		}
		return protoreflect.ValueOfInt64(v.Int()), nil
	case protoreflect.Int32Kind:
		return protoreflect.ValueOfInt32(int32(v.Int())), nil
	default:
		if v.String() == "" && !keepZero {
			return protoreflect.Value{}, nil
		}
		return protoreflect.ValueOfString(v.String()), nil
	}
}

func refLiteralFixSites(m *eval.TaskSpec) []fixSite {
	var sites []fixSite
	var walk func(v reflect.Value, nested bool, path []string)
	walk = func(v reflect.Value, nested bool, path []string) {
		switch v.Kind() {
		case reflect.String:
			if v.Type() == reflect.TypeOf("") && needsLiteralFix(v.String(), nested) {
				sites = append(sites, fixSite{v.Addr().Interface().(*string), nested, slices.Clone(path)})
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), nested, path)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), nested, append(slices.Clip(path), refYamlName(v.Type().Field(i))))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), true, append(slices.Clip(path), ""))
			}
		}
	}
	walk(reflect.ValueOf(m).Elem(), false, nil)
	return sites
}

func refYamlNodes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 1
		}
		return refYamlNodes(v.Elem())
	case reflect.Struct:
		n := 1
		for i := 0; i < v.NumField(); i++ {
			n += refFieldNodes(v.Type().Field(i), v.Field(i))
		}
		return n
	case reflect.Slice:
		n := 1
		for i := 0; i < v.Len(); i++ {
			n += refYamlNodes(v.Index(i))
		}
		return n
	case reflect.Map:
		n := 1
		iter := v.MapRange()
		for iter.Next() {
			n += 1 + refYamlNodes(iter.Value())
		}
		return n
	default:
		return 1
	}
}

func refFieldNodes(f reflect.StructField, v reflect.Value) int {
	if strings.HasSuffix(f.Tag.Get("yaml"), ",omitempty") && v.IsZero() {
		return 0
	}
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 &&
		strings.HasSuffix(f.Tag.Get("yaml"), ",omitempty") {
		return 0
	}
	return 1 + refYamlNodes(v)
}

// -- random inputs, from the descriptors and the struct types ---------------

var (
	randomTexts = []string{
		"", "x", "t-1", "go test ./...", "a\nb", " lead\nspace", "\tlead\ntab", "\nbreak first", "\n\n",
		"trail\u2028", "é\u2029", "<<", "~", "null", "0x1F", "- item", "a: b", "  ", "\x00",
	}
	randomInts = []int64{0, 1, -1, 7, 300, math.MaxInt32 + 1, math.MaxInt64, math.MinInt64}
)

// randomMessage fills m at random: each field unset, set empty or set, with
// enum numbers the schema does not define now and then.
func randomMessage(r *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if r.IntN(4) == 0 {
			continue
		}
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for j := r.IntN(5); j > 0; j-- {
				mp.Set(protoreflect.ValueOfString(randomTexts[r.IntN(len(randomTexts))]).MapKey(), randomScalar(r, fd.MapValue()))
			}
		case fd.IsList():
			list := m.Mutable(fd).List()
			for j := r.IntN(4); j > 0; j-- {
				if fd.Kind() == protoreflect.MessageKind {
					item := list.NewElement()
					randomMessage(r, item.Message(), depth+1)
					list.Append(item)
				} else {
					list.Append(randomScalar(r, fd))
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			sub := m.Mutable(fd).Message()
			if r.IntN(3) > 0 && depth < 5 {
				randomMessage(r, sub, depth+1)
			}
		default:
			m.Set(fd, randomScalar(r, fd))
		}
	}
}

func randomScalar(r *rand.Rand, fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		if r.IntN(10) == 0 {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(values.Len() + r.IntN(3)))
		}
		return protoreflect.ValueOfEnum(values.Get(r.IntN(values.Len())).Number())
	case protoreflect.Int64Kind:
		return protoreflect.ValueOfInt64(randomInts[r.IntN(len(randomInts))])
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(randomTexts[r.IntN(len(randomTexts))])
	}
	panic("no random value for a " + fd.Kind().String())
}

// randomMirror fills v, a mirror struct, at random: nil and empty slices and
// maps, nil and empty pointers, and enum text that spells no value now and
// then.
func randomMirror(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == reflect.TypeOf("") {
			v.SetString(randomTexts[r.IntN(len(randomTexts))])
			return
		}
		texts := []string{"bogus", "GO"}
		for full, t := range enumTables {
			// Mostly the enum's own spellings, which convert.
			if string(full.Name()) == v.Type().Name() && r.IntN(8) > 0 {
				texts = t.texts()
			}
		}
		v.SetString(texts[r.IntN(len(texts))])
	case reflect.Int:
		v.SetInt(int64(int(randomInts[r.IntN(3)])))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if r.IntN(4) > 0 {
				randomMirror(r, v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		if r.IntN(3) > 0 && depth < 5 {
			v.Set(reflect.New(v.Type().Elem()))
			if r.IntN(2) == 0 {
				randomMirror(r, v.Elem(), depth+1)
			}
		}
	case reflect.Slice:
		n := r.IntN(4)
		if n == 0 && r.IntN(2) == 0 {
			return // nil
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			randomMirror(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		n := r.IntN(4)
		if n == 0 && r.IntN(2) == 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for i := 0; i < n; i++ {
			val := reflect.New(v.Type().Elem()).Elem()
			randomMirror(r, val, depth+1)
			v.SetMapIndex(reflect.ValueOf(randomTexts[r.IntN(len(randomTexts))]), val)
		}
	}
}

// sameError reports whether two errors are the same to a caller: the same
// type, the same message, and for an *EnumError the same fields.
func sameError(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	var ea, eb *EnumError
	if errors.As(a, &ea) != errors.As(b, &eb) || (ea != nil && *ea != *eb) {
		return false
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b) && a.Error() == b.Error()
}

// mirrorSpecs are the specs of the canonical vectors and random ones.
func mirrorSpecs(t *testing.T) []*taskspecv1.TaskSpec {
	t.Helper()
	var specs []*taskspecv1.TaskSpec
	files, err := filepath.Glob(filepath.Join("..", "tests", "conformance", "vectors", "canonical", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no canonical vectors: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if spec, err := DecodeYAML(data); err == nil {
			specs = append(specs, spec)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		spec := &taskspecv1.TaskSpec{}
		randomMessage(r, spec.ProtoReflect(), 0)
		specs = append(specs, spec)
	}
	// An empty spec, a nil one, and undefined enum numbers in every enum field.
	specs = append(specs, &taskspecv1.TaskSpec{}, nil,
		&taskspecv1.TaskSpec{Language: 9}, &taskspecv1.TaskSpec{Difficulty: -1},
		&taskspecv1.TaskSpec{GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: 3}},
		&taskspecv1.TaskSpec{GeneratedFrom: &taskspecv1.GeneratedFrom{KgQuery: &taskspecv1.KGQuery{}}},
		&taskspecv1.TaskSpec{SolutionArtifacts: []*taskspecv1.SolutionArtifact{nil, {}}, DifficultySignals: map[string]int64{}},
		&taskspecv1.TaskSpec{Verification: &taskspecv1.Verification{BuildCmd: []string{}, TestCmd: []string{""}}})
	return specs
}

func TestTypedConvertersMatchTheDescriptorWalk(t *testing.T) {
	specs := mirrorSpecs(t)
	failed := 0
	for i, spec := range specs {
		got, gerr := toMirror(spec)
		want, werr := refToMirror(spec)
		if !sameError(gerr, werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("spec %d: toMirror = %+v, %v; reflection gives %+v, %v", i, got, gerr, want, werr)
			continue
		}
		if gerr != nil {
			failed++
			continue
		}
		back, berr := fromMirror(got)
		wantBack, wberr := refFromMirror(want)
		if !sameError(berr, wberr) || !proto.Equal(back, wantBack) {
			t.Errorf("spec %d: fromMirror = %v, %v; reflection gives %v, %v", i, back, berr, wantBack, wberr)
		}
		checkMirrorWalks(t, fmt.Sprint("spec ", i), got)
	}
	if failed == 0 || failed == len(specs) {
		t.Errorf("%d of %d specs failed to convert: the inputs miss a case", failed, len(specs))
	}

	r := rand.New(rand.NewPCG(3, 4))
	failed = 0
	for i := 0; i < 3000; i++ {
		var s eval.TaskSpec
		randomMirror(r, reflect.ValueOf(&s).Elem(), 0)
		got, gerr := fromMirror(&s)
		want, werr := refFromMirror(&s)
		if !sameError(gerr, werr) || !proto.Equal(got, want) {
			t.Errorf("mirror %d %+v: fromMirror = %v, %v; reflection gives %v, %v", i, s, got, gerr, want, werr)
		}
		if gerr != nil {
			failed++
		}
		checkMirrorWalks(t, fmt.Sprint("mirror ", i), &s)
	}
	if failed == 0 || failed == 3000 {
		t.Errorf("%d of 3000 mirrors failed to convert: the inputs miss a case", failed)
	}
}

// checkMirrorWalks compares the typed walks of m with the reflective ones.
func checkMirrorWalks(t *testing.T, name string, m *eval.TaskSpec) {
	t.Helper()
	got, want := literalFixSites(m), refLiteralFixSites(m)
	if len(got) != len(want) {
		t.Errorf("%s: %d fix sites, reflection finds %d", name, len(got), len(want))
	} else {
		for i := range got {
			if got[i].field != want[i].field || got[i].nested != want[i].nested || !slices.Equal(got[i].path, want[i].path) {
				t.Errorf("%s: fix site %d differs", name, i)
			}
		}
	}

	root := reflect.ValueOf(m).Elem()
	if n, want := mirrorNodes(m, nil), refYamlNodes(root); n != want {
		t.Errorf("%s: %d nodes, reflection counts %d", name, n, want)
	}
	var keys []string
	mirrorNodes(m, func(key string, n int) {
		i := len(keys)
		keys = append(keys, key)
		if i >= root.NumField() {
			return
		}
		if f := root.Type().Field(i); refYamlName(f) != key || refFieldNodes(f, root.Field(i)) != n {
			t.Errorf("%s: field %s has %d nodes; reflection: %s, %d", name, key, n, refYamlName(f), refFieldNodes(f, root.Field(i)))
		}
	})
	if len(keys) != root.NumField() {
		t.Errorf("%s: mirrorNodes names %d fields, the struct has %d", name, len(keys), root.NumField())
	}
}

// The conversions of the canonical vectors, typed and by reflection.
func BenchmarkMirrorConversion(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("..", "tests", "conformance", "vectors", "canonical", "*.yaml"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no canonical vectors: %v", err)
	}
	var specs []*taskspecv1.TaskSpec
	var mirrors []*eval.TaskSpec
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		spec, err := DecodeYAML(data)
		if err != nil {
			continue
		}
		m, err := toMirror(spec)
		if err != nil {
			b.Fatal(err)
		}
		specs, mirrors = append(specs, spec), append(mirrors, m)
	}
	for _, c := range []struct {
		name string
		to   func(*taskspecv1.TaskSpec) (*eval.TaskSpec, error)
		from func(*eval.TaskSpec) (*taskspecv1.TaskSpec, error)
	}{{"typed", toMirror, fromMirror}, {"reflect", refToMirror, refFromMirror}} {
		b.Run("to/"+c.name, func(b *testing.B) {
			for range b.N {
				for _, s := range specs {
					if _, err := c.to(s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("from/"+c.name, func(b *testing.B) {
			for range b.N {
				for _, m := range mirrors {
					if _, err := c.from(m); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
