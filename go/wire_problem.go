package taskspec

import (
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	forms "github.com/taskspec/taskspec/go/internal/catalogue"
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
	return forms.ReasonBinarySyntaxNotProtobuf.Render(nil)
}

func wireWalk(data []byte, md protoreflect.MessageDescriptor, path string, depth int) string {
	if depth > 100 {
		return forms.ReasonBinarySyntaxTooDeep.Render(nil)
	}
	for at := 0; at < len(data); {
		tag, next, ok := wireVarint(data, at)
		at = next
		if !ok {
			return forms.ReasonBinarySyntaxTagCut.Render(nil)
		}
		number, wire := tag>>3, tag&7
		if number == 0 {
			return forms.ReasonBinarySyntaxFieldZero.Render(nil)
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
				return forms.ReasonBinarySyntaxVarintCut.Render(forms.Args{"field": name})
			}
		case 1:
			if at+8 > len(data) {
				return forms.ReasonBinarySyntaxFixed64Cut.Render(forms.Args{"field": name})
			}
			at += 8
		case 5:
			if at+4 > len(data) {
				return forms.ReasonBinarySyntaxFixed32Cut.Render(forms.Args{"field": name})
			}
			at += 4
		case 2:
			size, next, ok := wireVarint(data, at)
			at = next
			if !ok {
				return forms.ReasonBinarySyntaxLengthCut.Render(forms.Args{"field": name})
			}
			if size > uint64(len(data)-at) {
				return forms.ReasonBinarySyntaxTooLong.Render(forms.Args{"field": name})
			}
			body := data[at : at+int(size)]
			at += int(size)
			switch {
			case fd != nil && fd.Message() != nil:
				if p := wireWalk(body, fd.Message(), name, depth+1); p != "" {
					return p
				}
			case fd != nil && fd.Kind() == protoreflect.StringKind && !utf8.Valid(body):
				return forms.ReasonBinarySyntaxNotUTF8.Render(forms.Args{"field": name})
			}
		case 3, 4:
			return forms.ReasonBinarySyntaxGroup.Render(forms.Args{"field": name})
		default:
			return forms.ReasonBinarySyntaxNoWireType.Render(forms.Args{"field": name, "n": strconv.FormatUint(wire, 10)})
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
