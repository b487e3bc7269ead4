package taskspec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// invalidUTF8 returns the path of the first string in spec, in
// field-number order, that is not valid UTF-8, or "". A Go string can hold
// any bytes, but a protobuf string is UTF-8 (proto.Marshal refuses one that
// is not), and yaml.v3 would write such a string as !!binary, which no
// reader of a sidecar accepts: so the writers refuse it, naming the field.
//
// Every write runs it, and nearly every spec is valid, so the generated
// specStrings looks at the strings first, with no reflection and no
// paths; the walk that builds paths runs only for a spec that has a string
// to name. Of a map's invalid entries it names the one whose key sorts
// first, so that the same spec always gives the same path.
func invalidUTF8(spec *taskspecv1.TaskSpec) string {
	valid := true
	specStrings(spec, func(s string) { valid = valid && utf8.ValidString(s) })
	if valid {
		return ""
	}
	return firstInvalid(spec.ProtoReflect(), "")
}

func validEntry(fd protoreflect.FieldDescriptor, k protoreflect.MapKey, v protoreflect.Value) bool {
	if fd.MapKey().Kind() == protoreflect.StringKind && !utf8.ValidString(k.String()) {
		return false
	}
	return fd.MapValue().Kind() != protoreflect.StringKind || utf8.ValidString(v.String())
}

func validValue(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return utf8.ValidString(v.String())
	case protoreflect.MessageKind:
		return firstInvalid(v.Message(), "") == ""
	}
	return true
}

// firstInvalid is invalidUTF8's walk for a message that holds an invalid
// string: the fields in number order, a list's items in order, a map's
// entries by key (their text, for a key that is not a string).
func firstInvalid(m protoreflect.Message, path string) string {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if !m.Has(fd) {
			continue
		}
		name := join(path, string(fd.Name()))
		v := m.Get(fd)
		switch {
		case fd.IsMap():
			var keys []protoreflect.MapKey
			v.Map().Range(func(k protoreflect.MapKey, val protoreflect.Value) bool {
				if !validEntry(fd, k, val) {
					keys = append(keys, k)
				}
				return true
			})
			if len(keys) > 0 {
				key := slices.MinFunc(keys, func(a, b protoreflect.MapKey) int {
					return strings.Compare(a.String(), b.String())
				})
				return name + "[" + strconv.Quote(key.String()) + "]"
			}
		case fd.IsList():
			list := v.List()
			for j := 0; j < list.Len(); j++ {
				if !validValue(fd, list.Get(j)) {
					return firstInvalidValue(fd, list.Get(j), fmt.Sprintf("%s[%d]", name, j))
				}
			}
		default:
			if !validValue(fd, v) {
				return firstInvalidValue(fd, v, name)
			}
		}
	}
	return ""
}

func firstInvalidValue(fd protoreflect.FieldDescriptor, v protoreflect.Value, path string) string {
	if fd.Kind() == protoreflect.MessageKind {
		return firstInvalid(v.Message(), path)
	}
	return path
}
