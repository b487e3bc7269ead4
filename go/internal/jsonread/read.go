// Package jsonread owns the reading of proto3 JSON: a small tokenizer of
// its own, which stops at the first text that is not JSON with the
// catalogue's words, at the place the text stops being readable, and a
// reader that fills a TaskSpec by its descriptor as it goes, with the field
// path threaded through, so that every unknown key, field given twice and
// value of the wrong type is found in one run, as the Python library's
// read_json(collect=True) finds them.
//
// Read is its one entry point. It knows nothing of the public package: it
// reports each problem as a plain Problem, with its catalogue code, which
// the public package turns into a Violation and its DecodeError. The size,
// encoding and byte order mark of the document are checked before it, by
// the caller, as for every format; the writer of JSON is the public
// package's json_write.go.
package jsonread

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
	"github.com/taskspec/taskspec/go/internal/wording"
)

// A Problem is one problem of a JSON text: the field path of the value it
// is about ("" for the document), the message and hint in the catalogue's
// words, its code, and, for text that is not JSON, the line and column
// where reading stopped (0 when it stopped at no one place).
type Problem struct {
	Path         string
	Message      string
	Hint         string
	Code         taskspecv1.ProblemCode
	Line, Column int
}

// The codes of the problems this package reports.
const (
	codeUnknownKey   = taskspecv1.ProblemCode_PROBLEM_CODE_UNKNOWN_KEY
	codeDuplicateKey = taskspecv1.ProblemCode_PROBLEM_CODE_DUPLICATE_KEY
	codeWrongType    = taskspecv1.ProblemCode_PROBLEM_CODE_WRONG_TYPE
	codeLimit        = taskspecv1.ProblemCode_PROBLEM_CODE_LIMIT
	codeEncoding     = taskspecv1.ProblemCode_PROBLEM_CODE_ENCODING
	codeJSONSyntax   = taskspecv1.ProblemCode_PROBLEM_CODE_JSON_SYNTAX
)

// Read reads text, UTF-8 without a byte order mark, as proto3 JSON into a
// TaskSpec, not validated, as the Python library's read_json does. Each
// unknown key, field given twice and value of the wrong type is one of
// problems, in document order, and is left out of the message: a list or
// a map with an item of the wrong type is left out whole. Text that cannot
// be read at all (not JSON, nested deeper than maxDepth, or not an object
// at the top) gives no message and its one problem as stop.
func Read(text string, maxDepth int) (spec *taskspecv1.TaskSpec, problems []Problem, stop *Problem) {
	r := &jsonReader{s: text, maxDepth: maxDepth}
	defer func() {
		if x := recover(); x != nil {
			s, ok := x.(jsonStop)
			if !ok {
				panic(x)
			}
			p := Problem(s)
			spec, problems, stop = nil, nil, &p
		}
	}()
	spec = &taskspecv1.TaskSpec{}
	top := jsonToken{kind: '{'}
	if r.peek() == '{' {
		r.message(spec.ProtoReflect(), "")
	} else {
		top = r.skip()
	}
	if r.peek(); r.i < len(r.s) {
		r.stop(r.i, forms.MsgJSONSyntaxTextAfterDocument)
	}
	if top.kind != '{' {
		return nil, nil, &Problem{Message: forms.MsgWrongTypeJSONTop.Render(forms.Args{"got": top.kindName()}), Code: codeWrongType}
	}
	return spec, r.problems, nil
}

// A jsonReader reads one JSON text, s, from offset i on.
type jsonReader struct {
	s        string
	i        int
	depth    int       // of the arrays and objects open at i
	maxDepth int       // the most arrays and objects open at once
	problems []Problem // the decode problems met so far, in document order
}

// A jsonStop is the panic that stops reading at text that is not JSON;
// Read recovers it.
type jsonStop Problem

// stop stops reading at offset at (-1: at no position), with the
// catalogue's message form for what is wrong there.
func (r *jsonReader) stop(at int, form forms.Form) {
	r.stopWith(at, codeJSONSyntax, form.Render(nil))
}

// stopFor stops reading at offset at (-1: at no position) for reason, one
// of the catalogue's TS020 reasons rendered with args.
func (r *jsonReader) stopFor(at int, reason forms.Form, args forms.Args) {
	r.stopWith(at, codeJSONSyntax, forms.MsgJSONSyntaxReason.Render(forms.Args{"reason": reason.Render(args)}))
}

// stopWith stops reading at offset at (-1: at no position) with the
// problem code and msg.
func (r *jsonReader) stopWith(at int, code taskspecv1.ProblemCode, msg string) {
	v := jsonStop{Message: msg, Code: code}
	if at >= 0 {
		before := r.s[:at]
		v.Line = strings.Count(before, "\n") + 1
		v.Column = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	}
	panic(v)
}

// problem records a decode problem of the value at path.
func (r *jsonReader) problem(path string, code taskspecv1.ProblemCode, msg, hint string) {
	r.problems = append(r.problems, Problem{Path: path, Message: msg, Hint: hint, Code: code})
}

// peek skips white space and returns the byte there (0 at the end).
func (r *jsonReader) peek() byte {
	for ; r.i < len(r.s); r.i++ {
		if c := r.s[r.i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// A jsonToken is what a value read was: its kind ('n' null, 't' true, 'f'
// false, '0' a number, '"' a string, '[' an array, '{' an object) and, for
// a number or a string, its text.
type jsonToken struct {
	kind byte
	text string // a number's as written; a string's with its escapes read
	lone rune   // a string's first unpaired surrogate escape (U+FFFD in text), or 0
}

var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`)

// skip reads the value at the cursor, whatever it is.
func (r *jsonReader) skip() jsonToken {
	c, rest := r.peek(), r.s[r.i:]
	switch {
	case c == '{':
		r.object(func(string, rune) { r.skip() })
	case c == '[':
		r.array(func(int) { r.skip() })
	case c == '"':
		text, lone := r.str()
		return jsonToken{kind: '"', text: text, lone: lone}
	case strings.HasPrefix(rest, "null"), strings.HasPrefix(rest, "true"):
		r.i += 4
	case strings.HasPrefix(rest, "false"):
		r.i += 5
	default:
		number := jsonNumber.FindString(rest)
		for _, name := range [...]string{"NaN", "Infinity", "-Infinity"} {
			if strings.HasPrefix(rest, name) {
				r.stopFor(-1, forms.ReasonJSONSyntaxNotAValue, forms.Args{"name": name})
			}
		}
		if number == "" {
			r.stop(r.i, forms.MsgJSONSyntaxValue)
		}
		r.i += len(number)
		return jsonToken{kind: '0', text: number}
	}
	return jsonToken{kind: c}
}

// object reads the object at the cursor, calling member for each key (with
// its first unpaired surrogate escape, or 0) with the cursor at its value,
// which member reads. A key given twice stops reading when the object
// closes.
func (r *jsonReader) object(member func(key string, lone rune)) {
	seen := map[string]bool{}
	twice, repeated := "", false
	r.items('}', func(int) {
		if r.peek() != '"' {
			r.stop(r.i, forms.MsgJSONSyntaxPropertyName)
		}
		key, lone := r.str()
		if r.peek() != ':' {
			r.stop(r.i, forms.MsgJSONSyntaxColon)
		}
		r.i++
		member(key, lone)
		if !repeated {
			twice, repeated = key, seen[key]
			seen[key] = true
		}
	})
	if repeated {
		r.stopFor(-1, forms.ReasonJSONSyntaxDuplicateKey, forms.Args{"key": wording.Quote(twice)})
	}
}

// array reads the array at the cursor, calling item for each item with the
// cursor at it, which item reads.
func (r *jsonReader) array(item func(i int)) { r.items(']', item) }

// items reads the array or object at the cursor, which closer closes,
// calling each for every item or member.
func (r *jsonReader) items(closer byte, each func(i int)) {
	if r.depth++; r.depth > r.maxDepth {
		r.stopWith(r.i, codeLimit, forms.MsgLimitDepth.Render(forms.Args{"n": strconv.Itoa(r.maxDepth)}))
	}
	r.i++
	if r.peek() != closer {
		for i := 0; ; i++ {
			each(i)
			if r.peek() != ',' {
				break
			}
			r.i++
		}
		if r.peek() != closer {
			if closer == ']' {
				r.stop(r.i, forms.MsgJSONSyntaxArrayEnd)
			}
			r.stop(r.i, forms.MsgJSONSyntaxObjectEnd)
		}
	}
	r.i++
	r.depth--
}

// str reads the string at the cursor: its text and its first unpaired
// surrogate escape, or 0.
func (r *jsonReader) str() (string, rune) {
	s, begin := r.s, r.i
	var b strings.Builder
	var lone rune
	for i := begin + 1; ; {
		j := i
		for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
			j++
		}
		switch {
		case j == len(s) || j+1 == len(s) && s[j] == '\\':
			r.stop(begin, forms.MsgJSONSyntaxStringNotClosed)
		case s[j] == '"' && i == begin+1:
			r.i = j + 1
			return s[i:j], 0 // no escape: the text as it is
		case s[j] < 0x20:
			r.stop(j, forms.MsgJSONSyntaxControl)
		}
		b.WriteString(s[i:j])
		if s[j] == '"' {
			r.i = j + 1
			return b.String(), lone
		}
		if k := strings.IndexByte(`"\/bfnrt`, s[j+1]); k >= 0 {
			b.WriteByte("\"\\/\b\f\n\r\t"[k])
			i = j + 2
			continue
		}
		c := r.hex4(j)
		i = j + 6
		if utf16.IsSurrogate(c) && c < 0xdc00 && strings.HasPrefix(s[i:], `\u`) {
			if low := r.hex4(i); low >= 0xdc00 && low <= 0xdfff {
				c, i = utf16.DecodeRune(c, low), i+6
			}
		}
		if utf16.IsSurrogate(c) {
			if lone == 0 {
				lone = c
			}
			c = utf8.RuneError
		}
		b.WriteRune(c)
	}
}

// hex4 is the code unit of the \uXXXX escape at offset at, which must have
// its four hex digits and text after them (the string's closing quote at
// least). Any other escape is unknown.
func (r *jsonReader) hex4(at int) rune {
	if at+6 < len(r.s) && r.s[at+1] == 'u' {
		if n, err := strconv.ParseUint(r.s[at+2:at+6], 16, 16); err == nil {
			return rune(n)
		}
	}
	r.stop(at, forms.MsgJSONSyntaxEscape)
	return 0
}

// fieldByJSONName finds a field by either of its accepted names.
func fieldByJSONName(md protoreflect.MessageDescriptor, key string) protoreflect.FieldDescriptor {
	if fd := md.Fields().ByJSONName(key); fd != nil {
		return fd
	}
	return md.Fields().ByName(protoreflect.Name(key))
}

// message reads the object at the cursor into m, the message at path:
// unknown keys and a field given under both of its names are problems.
func (r *jsonReader) message(m protoreflect.Message, path string) {
	md := m.Descriptor()
	given := make([]string, md.Fields().Len()) // the key each field was given as
	r.object(func(key string, _ rune) {
		fd := fieldByJSONName(md, key)
		switch {
		case fd == nil:
			msg := forms.MsgUnknownKeyPlain.Render(forms.Args{"key": wording.Quote(key)})
			if path != "" {
				msg = forms.MsgUnknownKeyInParent.Render(forms.Args{"key": wording.Quote(key), "parent": path})
			}
			r.problem(wording.Path(path, key), codeUnknownKey, msg, unknownJSONKeyHint(key, md))
			r.skip()
		case given[fd.Index()] != "":
			at := wording.Path(path, string(fd.Name()))
			r.problem(at, codeDuplicateKey, forms.MsgDuplicateKeyFieldTwice.Render(forms.Args{
				"path": at, "first": wording.Quote(given[fd.Index()]), "second": wording.Quote(key)}), "")
			r.skip()
		default:
			given[fd.Index()] = key
			r.field(m, fd, wording.Path(path, string(fd.Name())))
		}
	})
}

// unknownJSONKeyHint is the hint of an unknown JSON key: the field it most
// likely misspells, guessed among the proto field names as for a YAML key
// and named by its JSON name, the one a JSON writer uses; or else every
// field of the message, by its JSON name.
func unknownJSONKeyHint(key string, md protoreflect.MessageDescriptor) string {
	names := make([]string, md.Fields().Len())
	jsonNames := make([]string, md.Fields().Len())
	for j := range names {
		names[j] = string(md.Fields().Get(j).Name())
		jsonNames[j] = md.Fields().Get(j).JSONName()
	}
	if guess := wording.Guess(key, names); guess != "" {
		return forms.HintUnknownKeyDidYouMean.Render(forms.Args{"key": strconv.Quote(md.Fields().ByName(protoreflect.Name(guess)).JSONName())})
	}
	return forms.HintUnknownKeyOneOf.Render(forms.Args{"fields": strings.Join(jsonNames, ", ")})
}

// field reads the value at the cursor into field fd of m, at path. null
// leaves the field unset, and so does a problem: a list or a map with an
// item of the wrong type is left out whole, and its items after that one
// are only read past.
func (r *jsonReader) field(m protoreflect.Message, fd protoreflect.FieldDescriptor, path string) {
	failed := false
	switch c := r.peek(); {
	case fd.IsMap() && c == '{':
		values := m.Mutable(fd).Map()
		r.object(func(key string, lone rune) {
			if lone != 0 && !failed {
				r.lone(path, lone)
				failed = true
			}
			if v, ok := r.item(fd.MapValue(), nil, fmt.Sprintf("%s[%q]", path, key), failed); ok {
				values.Set(protoreflect.ValueOfString(key).MapKey(), v)
			} else {
				failed = true
			}
		})
	case fd.IsList() && c == '[':
		list := m.Mutable(fd).List()
		r.array(func(i int) {
			if v, ok := r.item(fd, list, fmt.Sprintf("%s[%d]", path, i), failed); ok {
				list.Append(v)
			} else {
				failed = true
			}
		})
	case fd.Message() != nil && !fd.IsMap() && !fd.IsList() && c == '{':
		r.message(m.Mutable(fd).Message(), path)
	default:
		switch t := r.skip(); {
		case t.kind == 'n': // the field's default
		case fd.IsMap():
			r.wrong(path, "an object", t.shown())
		case fd.IsList():
			r.wrong(path, "an array", t.shown())
		case fd.Message() != nil:
			r.wrong(path, "an object", t.kindName())
		default:
			if v, ok := r.scalar(fd, t, path); ok {
				m.Set(fd, v)
			}
		}
	}
	if failed {
		m.Clear(fd)
	}
}

// item reads the item at the cursor: of list, whose items are fd's, or
// (list nil) a value of a map whose values are fd, which in the schema are
// integers. After an item that failed, the rest are only read past.
func (r *jsonReader) item(fd protoreflect.FieldDescriptor, list protoreflect.List, path string, failed bool) (protoreflect.Value, bool) {
	switch {
	case failed:
		r.skip()
	case fd.Message() == nil:
		return r.scalar(fd, r.skip(), path)
	case r.peek() == '{':
		v := list.NewElement()
		r.message(v.Message(), path)
		return v, true
	default:
		r.wrong(path, "an object", r.skip().kindName())
	}
	return protoreflect.Value{}, false
}

// scalar is the value t holds for string, enum or int64 field fd at path,
// or false after its problem.
func (r *jsonReader) scalar(fd protoreflect.FieldDescriptor, t jsonToken, path string) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		switch {
		case t.kind != '"':
			return r.wrong(path, "a string", t.shown())
		case t.lone != 0:
			r.lone(path, t.lone)
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfString(t.text), true
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		if n, err := strconv.ParseInt(t.text, 10, 32); t.kind == '0' && err == nil {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n)), true
		} else if t.kind != '"' {
			return r.wrong(path, forms.WordAnEnumName.Render(nil), t.shown())
		} else if t.lone != 0 {
			r.lone(path, t.lone)
			return protoreflect.Value{}, false
		}
		if v := values.ByName(protoreflect.Name(t.text)); v != nil {
			return protoreflect.ValueOfEnum(v.Number()), true
		}
		names := make([]string, values.Len())
		for i := range names {
			names[i] = string(values.Get(i).Name())
		}
		r.problem(path, codeWrongType, forms.MsgWrongTypeEnumName.Render(forms.Args{
			"path": path, "enum": string(fd.Enum().FullName()), "value": wording.Quote(t.text)}),
			forms.HintWrongTypeOneOf.Render(forms.Args{"values": strings.Join(names, ", ")}))
		return protoreflect.Value{}, false
	}
	// An int64: a number or a string of digits, integral (1.0 and 1e3 are
	// read as a float64 is, as the Python library reads them).
	text := t.text
	switch {
	case t.kind == '0' && strings.ContainsAny(text, ".eE"):
		f, _ := strconv.ParseFloat(text, 64)
		if math.IsInf(f, 0) || f != math.Trunc(f) {
			return r.wrong(path, forms.WordAnInteger.Render(nil), t.shown())
		}
		if -(1<<63) <= f && f < 1<<63 {
			return protoreflect.ValueOfInt64(int64(f)), true
		}
	case t.kind == '0' || t.kind == '"' && jsonInteger.MatchString(text):
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return protoreflect.ValueOfInt64(n), true
		}
	default:
		return r.wrong(path, forms.WordAnInteger.Render(nil), t.shown())
	}
	r.problem(path, codeWrongType, forms.MsgWrongTypeJSONIntegerRange.Render(forms.Args{
		"path": path, "value": wording.Quote(text), "type": "int64"}), "")
	return protoreflect.Value{}, false
}

var jsonInteger = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)$`)

// lone records a string at path, a value, an enum's name or a map's key,
// that holds the unpaired surrogate escape c, which UTF-8 cannot carry.
func (r *jsonReader) lone(path string, c rune) {
	r.problem(path, codeEncoding, forms.MsgEncodingLoneSurrogate.Render(forms.Args{
		"path": path, "value": fmt.Sprintf("\\u%04x", c)}), "")
}

// wrong records a value of the wrong type: `path: expected X, got Y`.
func (r *jsonReader) wrong(path, expected, got string) (protoreflect.Value, bool) {
	r.problem(path, codeWrongType, forms.MsgWrongTypeExpected.Render(forms.Args{"path": path, "want": expected, "got": got}), "")
	return protoreflect.Value{}, false
}

// kindName is what t is, for a message.
func (t jsonToken) kindName() string { return jsonKinds[t.kind] }

var jsonKinds = map[byte]string{
	'n': forms.WordNull.Render(nil), 't': forms.WordABoolean.Render(nil), 'f': forms.WordABoolean.Render(nil),
	'0': forms.WordANumber.Render(nil), '"': forms.WordAString.Render(nil), '[': forms.WordAnArray.Render(nil),
	'{': forms.WordAnObject.Render(nil),
}

// shown is t for a message: its kind, and a string's or a number's text
// as the document writes it (1E2, not its value 100).
func (t jsonToken) shown() string {
	switch t.kind {
	case '"':
		return forms.WordString.Render(forms.Args{"value": wording.Quote(t.text)})
	case '0':
		return forms.WordNumber.Render(forms.Args{"value": wording.Clip(t.text)})
	}
	return t.kindName()
}
