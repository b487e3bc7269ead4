package taskspec

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// wireProblem returns why data, which protobuf refused, is not a message
// of type md, in the catalogue's words (after "invalid binary TaskSpec: "):
// the first field that cannot be read, found by walking the encoding, or
// "the data is not a protobuf message". The Python library's
// _binpb_reason gives the same words, so that neither language shows its
// protobuf runtime's text ("Wire format was corrupt").
func wireProblem(data []byte, md protoreflect.MessageDescriptor) string {
	if p := wireWalk(data, md, "", 0); p != "" {
		return p
	}
	return "the data is not a protobuf message"
}

func wireWalk(data []byte, md protoreflect.MessageDescriptor, path string, depth int) string {
	if depth > 100 {
		return "messages are nested too deeply"
	}
	for at := 0; at < len(data); {
		tag, next, ok := wireVarint(data, at)
		at = next
		if !ok {
			return "the data ends inside a field's tag"
		}
		number, wire := tag>>3, tag&7
		if number == 0 {
			return "a field has the number 0"
		}
		var fd protoreflect.FieldDescriptor
		if number <= 1<<29 {
			fd = md.Fields().ByNumber(protoreflect.FieldNumber(number))
		}
		name := strconv.FormatUint(number, 10)
		if fd != nil {
			name = join(path, string(fd.Name()))
		}
		switch wire {
		case 0:
			if _, at, ok = wireVarint(data, at); !ok {
				return fmt.Sprintf("the data ends inside field %s's varint", name)
			}
		case 1:
			if at+8 > len(data) {
				return fmt.Sprintf("the data ends inside field %s's fixed 64-bit value", name)
			}
			at += 8
		case 5:
			if at+4 > len(data) {
				return fmt.Sprintf("the data ends inside field %s's fixed 32-bit value", name)
			}
			at += 4
		case 2:
			size, next, ok := wireVarint(data, at)
			at = next
			if !ok {
				return fmt.Sprintf("the data ends inside field %s's length", name)
			}
			if size > uint64(len(data)-at) {
				return fmt.Sprintf("field %s is longer than the data", name)
			}
			body := data[at : at+int(size)]
			at += int(size)
			switch {
			case fd != nil && fd.Message() != nil:
				if p := wireWalk(body, fd.Message(), name, depth+1); p != "" {
					return p
				}
			case fd != nil && fd.Kind() == protoreflect.StringKind && !utf8.Valid(body):
				return fmt.Sprintf("field %s is not valid UTF-8", name)
			}
		case 3, 4:
			return fmt.Sprintf("field %s is a group, which a TaskSpec has none of", name)
		default:
			return fmt.Sprintf("field %s has the wire type %d, which does not exist", name, wire)
		}
	}
	return ""
}

// wireVarint reads the varint at offset at: its value (past 64 bits, the
// low ones), the offset after it, and whether it ends within ten bytes and
// the data.
func wireVarint(data []byte, at int) (uint64, int, bool) {
	var value uint64
	for shift := 0; at < len(data) && shift < 70; shift += 7 {
		b := data[at]
		at++
		if shift < 64 {
			value |= uint64(b&0x7f) << shift
		}
		if b&0x80 == 0 {
			return value, at, true
		}
	}
	return value, at, false
}
