package taskspec

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// invalidUTF8 returns the path of the first string in m, in field-number
// order, that is not valid UTF-8, or "". A Go string can hold any bytes,
// but a protobuf string is UTF-8 (proto.Marshal refuses one that is not),
// and yaml.v3 would write such a string as !!binary, which no reader of a
// sidecar accepts: so the writers refuse it, naming the field.
func invalidUTF8(m protoreflect.Message, path string) string {
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
			bad := ""
			v.Map().Range(func(k protoreflect.MapKey, val protoreflect.Value) bool {
				key := k.String()
				at := name + "[" + strconv.Quote(key) + "]"
				switch {
				case !utf8.ValidString(key):
					bad = at
				case fd.MapValue().Kind() == protoreflect.StringKind && !utf8.ValidString(val.String()):
					bad = at
				}
				return bad == ""
			})
			if bad != "" {
				return bad
			}
		case fd.IsList():
			list := v.List()
			for j := 0; j < list.Len(); j++ {
				at := fmt.Sprintf("%s[%d]", name, j)
				if bad := invalidValue(fd, list.Get(j), at); bad != "" {
					return bad
				}
			}
		default:
			if bad := invalidValue(fd, v, name); bad != "" {
				return bad
			}
		}
	}
	return ""
}

func invalidValue(fd protoreflect.FieldDescriptor, v protoreflect.Value, path string) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if !utf8.ValidString(v.String()) {
			return path
		}
	case protoreflect.MessageKind:
		return invalidUTF8(v.Message(), path)
	}
	return ""
}
