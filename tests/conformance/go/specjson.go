package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

// The JSON form of an eval.TaskSpec used on the serve protocol (SPEC): an
// object whose keys are exactly the canonical YAML keys (the structs' yaml
// tags), strings for strings and enum spellings, integers for integers
// (Go ints, 64 bits on the supported platforms, read and written exactly),
// null for a nil pointer. It is built and read by walking the structs, so a
// field the Go package gains needs no edit here.

// toSpecJSON converts for output: every key is present, a nil pointer is
// null, and lists and maps are [] and {} when empty.
func toSpecJSON(s *eval.TaskSpec) any { return structJSON(reflect.ValueOf(s).Elem()) }

func yamlKey(f reflect.StructField) string {
	key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return key
}

func structJSON(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return structJSON(v.Elem())
	case reflect.Struct:
		out := make(orderedObject, 0, v.NumField())
		for i := 0; i < v.NumField(); i++ {
			out = append(out, member{yamlKey(v.Type().Field(i)), structJSON(v.Field(i))})
		}
		return out
	case reflect.Slice:
		out := make([]any, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			out = append(out, structJSON(v.Index(i)))
		}
		return out
	case reflect.Map:
		out := make(map[string]any, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out[iter.Key().String()] = structJSON(iter.Value())
		}
		return out
	case reflect.String:
		return v.String()
	default:
		return v.Int()
	}
}

// An orderedObject is a JSON object whose keys keep the struct's field
// order, the order the YAML is written in, so that SPEC objects read alike.
type orderedObject []member

type member struct {
	key   string
	value any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteString(", ")
		}
		key, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteString(": ")
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// parseSpecJSON reads a SPEC object strictly: unknown keys, wrong types
// and trailing data are errors. Missing keys take their zero value, and a
// null or missing pointer means nil. Empty lists and maps become nil, which
// is how the YAML decoder leaves fields it never saw.
func parseSpecJSON(raw json.RawMessage) (*eval.TaskSpec, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("missing spec")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var in any
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("spec: trailing data")
	}
	var s eval.TaskSpec
	if err := fillJSON(reflect.ValueOf(&s).Elem(), in, "spec"); err != nil {
		return nil, err
	}
	normalize(&s)
	return &s, nil
}

func fillJSON(v reflect.Value, in any, path string) error {
	if in == nil {
		return nil // the zero value
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		return fillJSON(v.Elem(), in, path)
	case reflect.Struct:
		obj, ok := in.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", path, in)
		}
		fields := map[string]int{}
		for i := 0; i < v.NumField(); i++ {
			fields[yamlKey(v.Type().Field(i))] = i
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			i, ok := fields[k]
			if !ok {
				return fmt.Errorf("%s: json: unknown field %q", path, k)
			}
			if err := fillJSON(v.Field(i), obj[k], path+"."+k); err != nil {
				return err
			}
		}
	case reflect.Slice:
		list, ok := in.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %T", path, in)
		}
		v.Set(reflect.MakeSlice(v.Type(), len(list), len(list)))
		for i, item := range list {
			if err := fillJSON(v.Index(i), item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := in.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", path, in)
		}
		v.Set(reflect.MakeMapWithSize(v.Type(), len(obj)))
		for k, item := range obj {
			value := reflect.New(v.Type().Elem()).Elem()
			if err := fillJSON(value, item, path+"["+strconv.Quote(k)+"]"); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k), value)
		}
	case reflect.String:
		s, ok := in.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %T", path, in)
		}
		v.SetString(s)
	default:
		n, ok := in.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want an integer, got %T", path, in)
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v.SetInt(i)
	}
	return nil
}

// normalize replaces empty slices and maps with nil, in place and all the
// way down, so that reflect.DeepEqual compares meaning rather than
// allocation.
func normalize(s *eval.TaskSpec) { normalizeValue(reflect.ValueOf(s).Elem()) }

func normalizeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			normalizeValue(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			normalizeValue(v.Field(i))
		}
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		if v.Kind() == reflect.Slice {
			for i := 0; i < v.Len(); i++ {
				normalizeValue(v.Index(i))
			}
		}
	}
}

// protoFromSpecJSON builds the generated message from a SPEC object, field
// by field through the descriptors (a struct field's YAML key is the proto
// field's name). The enum spellings come from the taskspec library, so this
// is field copying, not a second converter: a spelling the library does not
// know ("cobol") is the library's error.
func protoFromSpecJSON(raw json.RawMessage) (*taskspecv1.TaskSpec, error) {
	s, err := parseSpecJSON(raw)
	if err != nil {
		return nil, err
	}
	m := &taskspecv1.TaskSpec{}
	if err := copyToProto(reflect.ValueOf(s).Elem(), m.ProtoReflect()); err != nil {
		return nil, err
	}
	return m, nil
}

func copyToProto(v reflect.Value, m protoreflect.Message) error {
	fields := m.Descriptor().Fields()
	byName := map[string]reflect.Value{}
	for i := 0; i < v.NumField(); i++ {
		byName[yamlKey(v.Type().Field(i))] = v.Field(i)
	}
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		in, ok := byName[string(fd.Name())]
		if !ok {
			return fmt.Errorf("the Go package has no field %s", fd.Name())
		}
		switch {
		case fd.IsMap():
			iter := in.MapRange()
			for iter.Next() {
				key := protoreflect.ValueOfString(iter.Key().String()).MapKey()
				m.Mutable(fd).Map().Set(key, protoreflect.ValueOfInt64(iter.Value().Int()))
			}
		case fd.IsList():
			for j := 0; j < in.Len(); j++ {
				list := m.Mutable(fd).List()
				if fd.Kind() == protoreflect.MessageKind {
					item := list.NewElement()
					if err := copyToProto(in.Index(j), item.Message()); err != nil {
						return err
					}
					list.Append(item)
				} else {
					list.Append(protoreflect.ValueOfString(in.Index(j).String()))
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			if in.Kind() == reflect.Pointer {
				if in.IsNil() {
					continue
				}
				in = in.Elem()
			}
			if err := copyToProto(in, m.Mutable(fd).Message()); err != nil {
				return err
			}
		case fd.Kind() == protoreflect.EnumKind:
			if in.String() == "" {
				continue // UNSPECIFIED, Go's zero value
			}
			n, err := taskspec.ParseEnum(fd.Enum(), in.String())
			if err != nil {
				return err
			}
			m.Set(fd, protoreflect.ValueOfEnum(n))
		case fd.Kind() == protoreflect.StringKind:
			if in.String() != "" {
				m.Set(fd, protoreflect.ValueOfString(in.String()))
			}
		default:
			if in.Int() != 0 {
				m.Set(fd, protoreflect.ValueOfInt64(in.Int()))
			}
		}
	}
	return nil
}
