package taskspec

import (
	"bytes"
	"encoding/base64"
	"sort"
	"strconv"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/taskspec/taskspec/go/internal/wording"
)

// writeJSONMessage appends m as the Python library's marshal_json writes it:
// proto3 JSON (lowerCamelCase names, int64 values as strings, enum values
// by name, fields at their default left out, a set but empty message as
// {}), fields in declaration order and map keys in Go's order, laid out as
// Python's json.dumps(indent=2, ensure_ascii=False) lays it out.
func writeJSONMessage(b *bytes.Buffer, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	first := true
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if !m.Has(fd) {
			continue
		}
		if first {
			b.WriteByte('{')
			first = false
		} else {
			b.WriteByte(',')
		}
		newline(b, depth+1)
		writeJSONString(b, fd.JSONName())
		b.WriteString(": ")
		v := m.Get(fd)
		switch {
		case fd.IsMap():
			writeJSONMap(b, fd, v.Map(), depth+1)
		case fd.IsList():
			list := v.List()
			b.WriteByte('[')
			for j := 0; j < list.Len(); j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				newline(b, depth+2)
				writeJSONValue(b, fd, list.Get(j), depth+2)
			}
			newline(b, depth+1)
			b.WriteByte(']')
		default:
			writeJSONValue(b, fd, v, depth+1)
		}
	}
	if first {
		b.WriteString("{}")
		return
	}
	newline(b, depth)
	b.WriteByte('}')
}

func newline(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
	}
}

// writeJSONMap writes a map's entries sorted by key as Go sorts them: false
// before true, integers by value, strings by their bytes. A set map field
// is never empty.
func writeJSONMap(b *bytes.Buffer, fd protoreflect.FieldDescriptor, mp protoreflect.Map, depth int) {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	sort.Slice(keys, func(i, j int) bool { return mapKeyLess(keys[i], keys[j]) })
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		newline(b, depth+1)
		writeJSONString(b, k.String())
		b.WriteString(": ")
		writeJSONValue(b, fd.MapValue(), mp.Get(k), depth+1)
	}
	newline(b, depth)
	b.WriteByte('}')
}

func mapKeyLess(a, b protoreflect.MapKey) bool {
	switch x := a.Interface().(type) {
	case bool:
		return !x && b.Bool()
	case string:
		return x < b.String()
	case int32, int64:
		return a.Int() < b.Int()
	default:
		return a.Uint() < b.Uint()
	}
}

// writeJSONValue writes one singular value of field fd, as json_format's
// MessageToDict gives it: 64-bit integers as strings, an enum number the
// schema does not define as a number.
func writeJSONValue(b *bytes.Buffer, fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		writeJSONMessage(b, v.Message(), depth)
	case protoreflect.StringKind:
		writeJSONString(b, v.String())
	case protoreflect.BytesKind:
		writeJSONString(b, base64.StdEncoding.EncodeToString(v.Bytes()))
	case protoreflect.BoolKind:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			writeJSONString(b, string(ev.Name()))
		} else {
			b.WriteString(strconv.FormatInt(int64(v.Enum()), 10))
		}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		writeJSONString(b, strconv.FormatInt(v.Int(), 10))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		writeJSONString(b, strconv.FormatUint(v.Uint(), 10))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	default: // float and double, which the schema does not use
		b.WriteString(wording.Float(v.Float()))
	}
}

const hexDigits = "0123456789abcdef"

// writeJSONString writes s quoted as Python's json.dumps(ensure_ascii=False)
// quotes it: only '"', '\\' and the C0 controls are escaped, the five with
// a short form by it and the others as \u00XX in lower case; DEL, U+2028
// and everything else are written as they are. s is valid UTF-8.
func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
