package taskspec

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// The size check of Validate (TS107) asks whether a spec's canonical YAML,
// the bytes MarshalYAML writes, is over MaxDocumentBytes, and its message
// states that size. Writing the YAML to measure it costs about 50 ms a MiB,
// so sizeBound first computes, without writing anything, a number that the
// YAML's length never exceeds: from the lengths of the strings, and when
// that is over the limit, from their characters, in one pass. Only a
// spec whose bound is over the limit is written out and measured, and that
// exact length decides, as it always did: a spec under the limit by a wide
// margin, by far the common case, is never written; one close to or over
// it is, and a spec over the limit has its exact size in the message.
// There is no lower bound: a spec over the limit needs its exact size for
// the message anyway.
//
// The bound follows how yaml.v3 v3.0.4 writes a document (emitterc.go),
// with MarshalYAML's repairs (marshal.go): lines are never folded (the
// encoder leaves the width unset, which the emitter reads as unlimited),
// and a string is written in one of four styles, which sizeBound does not
// need to tell apart, since it takes the largest of what each would write:
//
//   - plain: the string itself;
//   - single-quoted: the string, its quotes, each ' doubled, each line
//     break possibly doubled, and each line after a break indented;
//   - literal block ("|-"): a header of at most four bytes and its line
//     break, then each line indented;
//   - double-quoted: the string with escapes (\n, \x01, \u00AD, \U0001F600
//     for what is not printable, a line break, " or \). yaml.v3 escapes
//     every character of a string that starts with a byte-order mark
//     (is_bom looks at the string's first bytes wherever it is called), so
//     that "\ufeffab" is "\uFEFF\x61\x62": doubleQuoted counts that too.
//
// A line of a block is indented by at most 4 columns per mapping or list
// around the string (sizeShape.indent). Everything else is bounded per
// element, from the schema: a field of a message (each one, set or not,
// since some are written when unset) is at most its indentation, its name,
// ": ", a value that is not a string (an integer, an enum's spelling, "",
// [], {} or null) and a line break; an item of a list its indentation,
// "- ", such a value and a line break; an entry of a map two lines of
// indentation ("? " and ":" around a long or multi-line key), "? ", ": "
// and such a value.

// sizeShape is what the bound needs to know of the schema, read from the
// descriptors once.
type sizeShape struct {
	indent int // the most columns a line of a string is indented by
	// fields holds, per message, the bytes of its fields and those of the
	// messages in its singular message fields, recursively: what it takes
	// beside its strings when no list or map in it holds anything.
	fields map[protoreflect.FullName]int
	// items holds, per list or map field, the bytes of an item or entry
	// beside its strings and, for a message, its fields.
	items map[protoreflect.FullName]int
}

var shape = newSizeShape((&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor())

// valueBytes bounds the text of a value of fd's kind beside a string's
// own bound: the digits and sign of an integer, an enum's spelling (never
// longer than a value's name) in quotes, false, the [], {} or null of a
// list, map or message, and the "" of an empty string, which has no bound
// of its own when it is a field (specStrings passes only the set ones).
func valueBytes(fd protoreflect.FieldDescriptor) int {
	switch {
	case fd.Enum() != nil:
		n := 0
		for i := range fd.Enum().Values().Len() {
			n = max(n, len(fd.Enum().Values().Get(i).Name())+2)
		}
		return n
	case fd.Kind() == protoreflect.StringKind:
		return len(`""`)
	case fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind:
		return len("null")
	}
	return len("-9223372036854775808")
}

func newSizeShape(md protoreflect.MessageDescriptor) *sizeShape {
	s := &sizeShape{fields: map[protoreflect.FullName]int{}, items: map[protoreflect.FullName]int{}}
	// walk measures md with its keys at 4*(depth-1) columns, so that a
	// string in it sits in depth mappings and lists. A message used at two
	// depths keeps the larger figures.
	var walk func(md protoreflect.MessageDescriptor, depth int, seen []protoreflect.FullName) int
	walk = func(md protoreflect.MessageDescriptor, depth int, seen []protoreflect.FullName) int {
		for _, name := range seen {
			if name == md.FullName() {
				panic(fmt.Sprintf("taskspec: %s holds itself: the size bound needs a schema of bounded depth", name))
			}
		}
		seen = append(seen, md.FullName())
		s.indent = max(s.indent, 4*depth)
		n := 0
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			// The field's line, with a spare byte.
			value := valueBytes(fd)
			if fd.IsList() || fd.IsMap() {
				value = len("[]")
			}
			n += 4*(depth-1) + len(fd.Name()) + len(": \n") + value + 1
			var item int
			switch {
			case fd.IsMap():
				// A map key is a string in a mapping one level in.
				s.indent = max(s.indent, 4*(depth+1))
				item = 2*(4*depth+1) + len("? ") + len(": ") + len(":") + valueBytes(fd.MapValue()) + 1
				if sub := fd.MapValue().Message(); sub != nil {
					item += walk(sub, depth+2, seen)
				}
			case fd.IsList():
				// A list is indented one level in, and a mapping in it is
				// one more.
				s.indent = max(s.indent, 4*(depth+1))
				item = 4*depth + len("- \n") + valueBytes(fd) + 1
				if sub := fd.Message(); sub != nil {
					item += walk(sub, depth+2, seen)
				}
			case fd.Message() != nil:
				n += walk(fd.Message(), depth+1, seen)
			}
			s.items[fd.FullName()] = max(s.items[fd.FullName()], item)
		}
		s.fields[md.FullName()] = max(s.fields[md.FullName()], n)
		return n
	}
	walk(md, 1, nil)
	return s
}

// sizeBound returns a number the length of spec's canonical YAML never
// exceeds, and whether every string of spec is valid UTF-8; when one is
// not, the bound is meaningless (MarshalYAML refuses such a spec). See the
// comment above sizeShape. It bounds each string by its length first
// (quickBound), which is enough for most specs, and reads the strings
// character by character (stringBound) only when that is over the limit.
func sizeBound(spec *taskspecv1.TaskSpec) (bound int, valid bool) {
	perBreak := shape.indent + 1
	if bound, valid = boundWith(spec, perBreak, shape, quickBound); !valid || bound <= MaxDocumentBytes {
		return bound, valid
	}
	return boundWith(spec, perBreak, shape, stringBound)
}

// boundWith is sizeBound with its parts as arguments, so that a test can
// check each and show that a smaller bound is caught: perBreak is the most
// a line break adds beside its own bytes (a line's indentation, and one
// more break), sh the schema's figures, str the bound of a string and
// whether it is valid UTF-8.
func boundWith(spec *taskspecv1.TaskSpec, perBreak int, sh *sizeShape,
	str func(string, int) (int, bool)) (bound int, valid bool) {
	// The document's own bytes: a final "...", its line break, and a
	// spare; every element's and every string's are added below.
	bound = 16 + sh.fields[spec.ProtoReflect().Descriptor().FullName()]
	valid = true
	specStrings(spec, func(s string) {
		b, ok := str(s, perBreak)
		bound += b
		valid = valid && ok
	})
	specItems(spec, func(field string, n int) {
		bound += n * sh.items[protoreflect.FullName(field)]
	})
	return bound, valid
}

// quickBound is a bound of stringBound from s's length alone. Per byte of
// s, stringBound counts at most perBreak+2: a byte, and for a ' or a line
// break perBreak+1 more (each is one byte, a line break of two or three
// bytes counts once); an escape is at most four bytes a byte, and perBreak
// is at least 2. Then there is what stringBound adds to any string.
func quickBound(s string, perBreak int) (int, bool) {
	return (perBreak+2)*len(s) + perBreak + 10, utf8.ValidString(s)
}

// stringBound bounds the bytes s takes written in any style, perBreak
// being the most a line break adds beside its own bytes (a line's
// indentation and one more break), and reports whether s is valid UTF-8.
func stringBound(s string, perBreak int) (int, bool) {
	dq, quotes, breaks, valid := doubleQuoted(s)
	// A plain or single-quoted scalar on one line: the string, its quotes,
	// each ' doubled.
	block := len(s) + quotes + 2
	if breaks > 0 {
		// A literal block or single-quoted scalar of several lines: per
		// break, one more break and a line's indentation, and the same
		// for the first line; a header, and its line break.
		block = len(s) + quotes + (breaks+1)*(perBreak+1) + 6
	}
	// The space before the scalar, and two bytes MarshalYAML's repairs can
	// add: a literal header's indentation indicator, the quotes of a "<<"
	// key.
	return 1 + max(block, dq) + 2, valid
}

// escapeLen is the length of yaml.v3's escape of r in a double-quoted
// scalar: \0, \n and the other short forms, else \xXX, \uXXXX, \UXXXXXXXX.
func escapeLen(r rune) int {
	switch r {
	case 0, '\a', '\b', '\t', '\n', '\v', '\f', '\r', 0x1b, '"', '\\', 0x85, 0xa0, 0x2028, 0x2029:
		return 2
	case 0xfeff:
		return 6
	}
	switch {
	case r <= 0xff:
		return 4
	case r <= 0xffff:
		return 6
	}
	return 10
}

// asciiQuoted packs, for each ASCII byte, its length in a double-quoted
// scalar (yaml.v3's is_printable, is_break and escapes), whether it is a '
// (at bit 21) and whether it is a line break (at bit 42), so that a run of
// ASCII is counted with one addition a byte.
var asciiQuoted = func() (t [utf8.RuneSelf]uint64) {
	for b := range t {
		t[b] = 1
		if b < 0x20 || b == 0x7f || b == '"' || b == '\\' {
			t[b] = uint64(escapeLen(rune(b)))
		}
		switch b {
		case '\'':
			t[b] |= 1 << quoteShift
		case '\n', '\r':
			t[b] |= 1 << breakShift
		}
	}
	return t
}()

const (
	quoteShift = 21
	breakShift = 42
	fieldMask  = 1<<quoteShift - 1
	// asciiRun is the most bytes counted in one sum: at four a byte, the
	// length stays under 1<<quoteShift.
	asciiRun = 1 << (quoteShift - 3)
)

// doubleQuoted returns the length of s double-quoted, with its two quotes,
// the number of its ' and of its line breaks, and whether it is valid
// UTF-8.
func doubleQuoted(s string) (size, quotes, breaks int, valid bool) {
	size = 2
	if len(s) >= 3 && s[:3] == byteOrderMark {
		return escapedAll(s)
	}
	for i := 0; i < len(s); {
		var sum uint64
		for end := min(len(s), i+asciiRun); i < end && s[i] < utf8.RuneSelf; i++ {
			sum += asciiQuoted[s[i]]
		}
		size += int(sum & fieldMask)
		quotes += int(sum >> quoteShift & fieldMask)
		breaks += int(sum >> breakShift)
		if i == len(s) || s[i] < utf8.RuneSelf {
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			return 0, 0, 0, false
		}
		switch {
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			breaks++
			size += 2
		case printable(r):
			size += w
		default:
			size += escapeLen(r)
		}
		i += w
	}
	return size, quotes, breaks, true
}

// escapedAll is doubleQuoted for a string that starts with a byte-order
// mark, every character of which yaml.v3 escapes.
func escapedAll(s string) (size, quotes, breaks int, valid bool) {
	size = 2
	for _, r := range s {
		if r == utf8.RuneError && !utf8.ValidString(s) {
			return 0, 0, 0, false
		}
		switch r {
		case '\'':
			quotes++
		case '\n', '\r', 0x85, 0x2028, 0x2029:
			breaks++
		}
		size += escapeLen(r)
	}
	return size, quotes, breaks, true
}

// printable is yaml.v3's is_printable for a character beyond ASCII, valid
// UTF-8: U+00A0 to U+D7FF, U+E000 to U+FFFD but U+FEFF. Characters past
// U+FFFF are not printable to it, and are escaped.
func printable(r rune) bool {
	return (r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd && r != 0xfeff)
}
