package taskspec

import (
	"fmt"
	"math"
	"reflect"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// An EnumError reports an enum number the schema does not define, found
// where the spec must be written as YAML. An open proto3 enum can carry any
// int32, but YAML carries only spellings, so writing such a value would lose
// it; the Python library refuses it the same way.
type EnumError struct {
	FieldPath string // "language", "difficulty" or "generated_from.kind"
	Enum      string // the enum's full name, e.g. "taskspec.v1.Language"
	Number    int32
}

func (e *EnumError) Error() string {
	return fmt.Sprintf("%s%s: enum value %d is not defined in %s and cannot be written as YAML",
		errPrefix, e.FieldPath, e.Number, e.Enum)
}

// The message and its YAML shape (the generated eval structs) are matched
// field by field through the descriptors: a struct field's YAML key is the
// proto field's name. So a field added to the proto, once generated into
// both, is converted with no edit here.

// toMirror converts a message to the YAML shape. Empty repeated and map
// fields become nil, so that omitempty drops them as it drops the Go
// package's zero values; an unset message field held by a pointer (an
// OMIT_UNSET field, such as kg_query) stays nil and a set one, even empty,
// is kept, because YAML writes the latter as {}.
func toMirror(m *taskspecv1.TaskSpec) (*eval.TaskSpec, error) {
	var s eval.TaskSpec
	if err := messageToStruct(m.ProtoReflect(), reflect.ValueOf(&s).Elem(), ""); err != nil {
		return nil, err
	}
	return &s, nil
}

// fromMirror converts a decoded document to the message. The enum text must
// already be known to spell a value (Validate ran, or the caller checked).
// Message fields held by value (generated_from, verification) are always
// set, because the YAML form always writes them; this is also what the
// Python library decodes.
func fromMirror(s *eval.TaskSpec) (*taskspecv1.TaskSpec, error) {
	m := &taskspecv1.TaskSpec{}
	if err := structToMessage(reflect.ValueOf(s).Elem(), m.ProtoReflect(), ""); err != nil {
		return nil, err
	}
	return m, nil
}

// structField returns the field of struct v whose YAML key is name, and
// whether there is one. There is always one when the stubs and the eval
// structs are generated from the same proto (make generate, checked by
// checkgenerate); with stubs newer than this package, a field it does not
// know is left out of the YAML, as the Go package leaves out what its
// structs lack.
func structField(v reflect.Value, name protoreflect.Name) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if yamlName(t.Field(i)) == string(name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func messageToStruct(m protoreflect.Message, v reflect.Value, path string) error {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		out, ok := structField(v, fd.Name())
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
				item, err = scalarToGo(fd.MapValue(), val, out.Type().Elem(), sub+"["+k.String()+"]")
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
					if err := messageToStruct(list.Get(j).Message(), items.Index(j), at); err != nil {
						return err
					}
					continue
				}
				item, err := scalarToGo(fd, list.Get(j), out.Type().Elem(), at)
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
			if err := messageToStruct(m.Get(fd).Message(), out, sub); err != nil {
				return err
			}
		default:
			item, err := scalarToGo(fd, m.Get(fd), out.Type(), sub)
			if err != nil {
				return err
			}
			out.Set(item)
		}
	}
	return nil
}

// scalarToGo converts a scalar proto value to the mirror's type t: a
// string, an int (narrowed from int64) or an enum's spelling.
func scalarToGo(fd protoreflect.FieldDescriptor, v protoreflect.Value, t reflect.Type, path string) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	switch fd.Kind() {
	case protoreflect.EnumKind:
		text, ok := enumTables[fd.Enum().FullName()].spelling(v.Enum())
		if !ok {
			return out, &EnumError{path, string(fd.Enum().FullName()), int32(v.Enum())}
		}
		out.SetString(text)
	case protoreflect.Int64Kind, protoreflect.Int32Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := toInt(path, v.Int())
		if err != nil {
			return out, err
		}
		out.SetInt(int64(n))
	default:
		out.SetString(v.String())
	}
	return out, nil
}

func structToMessage(v reflect.Value, m protoreflect.Message, path string) error {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		in, ok := structField(v, fd.Name())
		if !ok {
			continue
		}
		sub := join(path, string(fd.Name()))
		switch {
		case fd.IsMap():
			if in.Len() == 0 {
				continue
			}
			entries := m.Mutable(fd).Map()
			iter := in.MapRange()
			for iter.Next() {
				val, err := goToScalar(fd.MapValue(), iter.Value(), sub, true)
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
					if err := structToMessage(in.Index(j), item.Message(), fmt.Sprintf("%s[%d]", sub, j)); err != nil {
						return err
					}
					list.Append(item)
					continue
				}
				val, err := goToScalar(fd, in.Index(j), sub, true)
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
			if err := structToMessage(in, m.Mutable(fd).Message(), sub); err != nil {
				return err
			}
		default:
			val, err := goToScalar(fd, in, sub, false)
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

// goToScalar converts a mirror value to the proto value of fd: an enum
// from its spelling, an int64, or a string. Unless keepZero (a list item
// or a map value), the zero value is returned invalid, so that the field
// stays unset, as proto3 keeps it.
func goToScalar(fd protoreflect.FieldDescriptor, v reflect.Value, path string, keepZero bool) (protoreflect.Value, error) {
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

func enumTextError(path, text string) error {
	return &ValidationError{Violations: []Violation{{
		FieldPath: path, Message: fmt.Sprintf("invalid %s %q", path, text),
	}}}
}

// toInt narrows an int64 to the YAML shape's int. It can only fail where
// int is 32 bits wide.
func toInt(field string, v int64) (int, error) {
	if v < math.MinInt || v > math.MaxInt {
		return 0, fmt.Errorf("%s%s: %d does not fit in int on this platform", errPrefix, field, v)
	}
	return int(v), nil
}
