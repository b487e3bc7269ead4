package taskspec

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// decodeError is a *DecodeError holding one problem: msg, the Python
// library's message for the same input, at path, line and column (0 when
// unknown). Its code is read from the message's kind, and a message that
// ends in a suggestion ("; expected one of: ...") has it as its hint, as
// the Python library has it.
func decodeError(path string, line, column int, msg string) *DecodeError {
	v := Violation{FieldPath: path, Line: line, Column: column, Message: msg, Severity: severityError}
	for _, sep := range []string{"; expected one of: ", "; did you mean "} {
		if i := strings.Index(msg, sep); i >= 0 {
			v.Message, v.Hint = msg[:i], msg[i+2:]
			break
		}
	}
	switch {
	case strings.HasPrefix(msg, "invalid JSON: "):
		v.Code = codeJSONSyntax
	case strings.HasPrefix(msg, "invalid binary TaskSpec: "):
		v.Code = codeBinarySyntax
	case strings.HasPrefix(msg, "unknown field"), strings.Contains(msg, ": unknown field"):
		v.Code = codeUnknownKey
	case strings.Contains(msg, " is given twice"), strings.Contains(msg, "duplicate key"):
		v.Code = codeDuplicateKey
	default:
		v.Code = reasonCode(strings.TrimPrefix(v.Message, path+": "))
	}
	de := newDecodeError([]Violation{v}, nil)
	de.prefix = errPrefix
	return de
}

// jsonMessages are the catalogue's words for the kinds of JSON syntax
// error the scanner finds, by the start of its message.
var jsonMessages = []struct{ start, words string }{
	{"Expecting value", "expected a value"},
	{"Expecting property name", "expected a property name in double quotes"},
	{"Expecting ':'", "expected ':'"},
	{"Unterminated string", "a string is not closed"},
	{"Invalid control character", "a control character must be escaped in a string"},
	{`Invalid \`, "unknown escape in a string"},
	{"Extra data", "text after the end of the document"},
}

// jsonMessage is the catalogue's message for a JSON syntax error of kind
// msg met at offset pos of text. A missing comma is worded by what it is
// missing in: the innermost array or object open at pos.
func jsonMessage(msg, text string, pos int) string {
	if strings.HasPrefix(msg, "Expecting ',' delimiter") {
		closer := "}"
		if openAt(text, pos) == '[' {
			closer = "]"
		}
		return "invalid JSON: expected ',' or '" + closer + "'"
	}
	for _, m := range jsonMessages {
		if strings.HasPrefix(msg, m.start) {
			return "invalid JSON: " + m.words
		}
	}
	return "invalid JSON: the text cannot be read past this point"
}

// openAt is the innermost bracket ('[' or '{') still open at offset pos of
// text, outside strings, or 0.
func openAt(text string, pos int) byte {
	var stack []byte
	for i := 0; i < pos && i < len(text); i++ {
		switch c := text[i]; c {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			stack = append(stack, c)
		case ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return 0
	}
	return stack[len(stack)-1]
}

// decodeJSON reads data as proto3 JSON into a message, as the Python
// library's parse_json does before it validates: its first decode problem
// is the error.
func decodeJSON(data []byte) (*taskspecv1.TaskSpec, error) {
	return readJSON(data, nil)
}

// readJSON reads data as proto3 JSON into a message, not validated, as the
// Python library's read_json does. With problems nil, the first decode
// problem is the error. Else every unknown key, field given twice and
// value of the wrong type is added to *problems and left out of the
// message, so that all of them are found in one run (read_json's
// collect=True); JSON that cannot be read is still the error, alone.
func readJSON(data []byte, problems *[]Violation) (*taskspecv1.TaskSpec, error) {
	if len(data) > MaxDocumentBytes {
		return nil, decodeError("", 0, 0, fmt.Sprintf("document is larger than %d bytes", MaxDocumentBytes))
	}
	bom := 0
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		bom = 3
	}
	text := data[bom:]
	if at := invalidUTF8At(text); at < len(text) {
		return nil, decodeError("", 0, 0, fmt.Sprintf("input is not valid UTF-8 (byte 0x%02x at offset %d)", text[at], at+bom))
	}
	doc, err := scanJSON(string(text))
	if err != nil {
		var serr *jsonSyntaxError
		if errors.As(err, &serr) {
			line, col := lineColumn(string(text), serr.pos)
			return nil, decodeError("", line, col, jsonMessage(serr.msg, string(text), serr.pos))
		}
		return nil, decodeError("", 0, 0, "invalid JSON: "+err.(*jsonValueError).msg)
	}
	if doc.kind != jsonObject {
		return nil, decodeError("", 0, 0, "expected a JSON object at the top, got "+jsonKindName(doc))
	}
	spec := &taskspecv1.TaskSpec{}
	if err := checkJSONFields(doc, spec.ProtoReflect().Descriptor(), "", problems); err != nil {
		return nil, err
	}
	r := jsonReader{}
	r.message(doc, spec.ProtoReflect(), "TaskSpec")
	if r.err != "" {
		err := decodeError("", 0, 0, "invalid TaskSpec JSON: "+r.err)
		if problems == nil {
			return nil, err
		}
		*problems = append(*problems, err.Violations...)
		spec = &taskspecv1.TaskSpec{}
	}
	return spec, nil
}

func jsonKindName(v *jsonValue) string {
	switch v.kind {
	case jsonNull:
		return "null"
	case jsonTrue, jsonFalse:
		return "a boolean"
	case jsonNumber:
		return "a number"
	case jsonString:
		return "a string"
	case jsonArray:
		return "an array"
	}
	return "an object"
}

// fieldByJSONName finds a field by either of its accepted names.
func fieldByJSONName(md protoreflect.MessageDescriptor, key string) protoreflect.FieldDescriptor {
	if fd := md.Fields().ByJSONName(key); fd != nil {
		return fd
	}
	return md.Fields().ByName(protoreflect.Name(key))
}

// checkJSONFields refuses unknown keys, a field given under both of its
// names and a value of the wrong type, naming the field path, as the
// Python library's _check_fields does, in document order. With problems
// nil the first is the error; else each is added to *problems and its key
// removed from obj, so that the message is read without it.
func checkJSONFields(obj *jsonValue, md protoreflect.MessageDescriptor, path string, problems *[]Violation) *DecodeError {
	seen := map[protoreflect.Name]string{}
	kept := 0
	for i, key := range obj.keys {
		value := obj.values[i]
		var bad *DecodeError
		fd := fieldByJSONName(md, key)
		fieldPath := ""
		if fd != nil {
			fieldPath = join(path, string(fd.Name()))
		}
		first, given := "", false
		if fd != nil {
			first, given = seen[fd.Name()]
		}
		switch {
		case fd == nil:
			where := ""
			if path != "" {
				where = " in " + path
			}
			bad = decodeError(join(path, key), 0, 0, fmt.Sprintf("unknown field %s%s; %s", q(key), where, unknownJSONKeyHint(key, md)))
		case given:
			bad = decodeError(fieldPath, 0, 0, fmt.Sprintf("field %s is given twice, as %s and %s",
				fieldPath, q(first), q(key)))
		default:
			seen[fd.Name()] = key
			bad = checkJSONValue(fd, value, fieldPath, problems)
		}
		if bad != nil {
			if problems == nil {
				return bad
			}
			*problems = append(*problems, bad.Violations...)
			continue
		}
		obj.keys[kept], obj.values[kept] = key, value
		kept++
	}
	obj.keys, obj.values = obj.keys[:kept], obj.values[:kept]
	return nil
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
	if guess := suggest(key, names); guess != "" {
		return "did you mean " + strconv.Quote(md.Fields().ByName(protoreflect.Name(guess)).JSONName()) + "?"
	}
	return "expected one of: " + strings.Join(jsonNames, ", ")
}

// checkJSONValue refuses a value of the wrong type for field fd at path,
// in the Python library's words (its _check_value), before json_format's
// reader would refuse it in its runtime's. null is the field's default.
// The problems inside a message value go to problems, when it is not nil.
func checkJSONValue(fd protoreflect.FieldDescriptor, value *jsonValue, path string, problems *[]Violation) *DecodeError {
	if value.kind == jsonNull {
		return nil
	}
	switch {
	case fd.IsMap():
		if value.kind != jsonObject {
			return wrongJSON(path, "an object", value)
		}
		for i, k := range value.keys {
			if err := checkJSONScalar(fd.MapValue(), value.values[i], fmt.Sprintf("%s[%q]", path, k)); err != nil {
				return err
			}
		}
		return nil
	case fd.IsList():
		if value.kind != jsonArray {
			return wrongJSON(path, "an array", value)
		}
		for i, item := range value.values {
			if err := checkJSONItem(fd, item, fmt.Sprintf("%s[%d]", path, i), problems); err != nil {
				return err
			}
		}
		return nil
	}
	return checkJSONItem(fd, value, path, problems)
}

func checkJSONItem(fd protoreflect.FieldDescriptor, value *jsonValue, path string, problems *[]Violation) *DecodeError {
	if fd.Message() == nil {
		return checkJSONScalar(fd, value, path)
	}
	if value.kind != jsonObject {
		return decodeError(path, 0, 0, path+": expected an object, got "+jsonKindName(value))
	}
	return checkJSONFields(value, fd.Message(), path, problems)
}

var jsonIntegerText = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)$`)

// checkJSONScalar refuses a string, integer or enum value of the wrong
// type or out of its range.
func checkJSONScalar(fd protoreflect.FieldDescriptor, value *jsonValue, path string) *DecodeError {
	switch {
	case fd.Kind() == protoreflect.StringKind:
		if value.kind != jsonString {
			return wrongJSON(path, "a string", value)
		}
		if value.surrogate {
			return decodeError(path, 0, 0, fmt.Sprintf("%s: the string holds a lone surrogate (\\u%04x), which UTF-8 cannot carry", path, value.lone))
		}
		return nil
	case fd.Kind() == protoreflect.EnumKind:
		ed := fd.Enum()
		if value.kind == jsonString {
			if ed.Values().ByName(protoreflect.Name(value.text)) != nil {
				return nil
			}
			names := make([]string, ed.Values().Len())
			for i := range names {
				names[i] = string(ed.Values().Get(i).Name())
			}
			return decodeError(path, 0, 0, fmt.Sprintf("%s: expected a %s value name, got the string %s; expected one of: %s",
				path, ed.FullName(), q(value.text), strings.Join(names, ", ")))
		}
		if n, ok := jsonInt(value); ok && value.kind == jsonNumber && !strings.ContainsAny(value.text, ".eE") &&
			n.IsInt64() && n.Int64() >= math.MinInt32 && n.Int64() <= math.MaxInt32 {
			return nil
		}
		return wrongJSON(path, "an enum value name", value)
	}
	low, high, name := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64), "int64"
	if fd.Kind() == protoreflect.Int32Kind || fd.Kind() == protoreflect.Sint32Kind || fd.Kind() == protoreflect.Sfixed32Kind {
		low, high, name = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32), "int32"
	}
	n, ok := jsonInt(value)
	if !ok {
		return wrongJSON(path, "an integer", value)
	}
	if n.Cmp(low) < 0 || n.Cmp(high) > 0 {
		shown := n.String()
		if value.kind == jsonString {
			shown = value.text
		}
		return decodeError(path, 0, 0, fmt.Sprintf("%s: integer %s is out of the %s range", path, q(shown), name))
	}
	return nil
}

// jsonInt is the integer a JSON value holds as Python reads it: an
// integer, a float with no fraction, or a string of decimal digits.
func jsonInt(value *jsonValue) (*big.Int, bool) {
	switch value.kind {
	case jsonNumber:
		if !strings.ContainsAny(value.text, ".eE") {
			return new(big.Int).SetString(value.text, 10)
		}
		f, err := strconv.ParseFloat(value.text, 64)
		if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) {
			return nil, false
		}
		n, _ := new(big.Float).SetFloat64(f).Int(nil)
		return n, true
	case jsonString:
		if jsonIntegerText.MatchString(value.text) {
			return new(big.Int).SetString(value.text, 10)
		}
	}
	return nil, false
}

// wrongJSON is a value of the wrong type: `path: expected X, got Y`.
func wrongJSON(path, expected string, value *jsonValue) *DecodeError {
	return decodeError(path, 0, 0, fmt.Sprintf("%s: expected %s, got %s", path, expected, jsonShown(value)))
}

// jsonShown is a value for a message: its kind, and a string's or a
// number's text as Python writes it.
func jsonShown(value *jsonValue) string {
	switch value.kind {
	case jsonString:
		return "the string " + q(value.text)
	case jsonNumber:
		text := value.text
		if n, ok := new(big.Int).SetString(text, 10); ok && !strings.ContainsAny(text, ".eE") {
			text = n.String()
		} else if f, err := strconv.ParseFloat(text, 64); err == nil || math.IsInf(f, 0) {
			text = pyFloat(f)
			if math.IsInf(f, 0) {
				text = map[bool]string{true: "Infinity", false: "-Infinity"}[f > 0]
			}
		}
		return "the number " + clip(text)
	}
	return jsonKindName(value)
}

// jsonReader lays a checked JSON object onto a message. Its first failure
// is kept in err as the Python library words it (json_format's message,
// after the names of the fields it is in: "verification.timeoutSeconds:
// Value out of range: ...").
type jsonReader struct {
	names []string // the keys, as written, of the fields being read
	err   string
}

func (r *jsonReader) fail(format string, args ...any) {
	if r.err != "" {
		return
	}
	msg := clipped(oneLine(fmt.Sprintf(format, args...)), 2*quoteChars)
	if len(r.names) > 0 {
		msg = strings.Join(r.names, ".") + ": " + msg
	}
	r.err = msg
}

// oneLine joins the words of text with single spaces, as the Python
// library's messages are one line: its words are split at what Python's
// str.split splits at, Unicode white space and the separators U+001C to
// U+001F.
func oneLine(text string) string {
	return strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
	}), " ")
}

// message reads obj into m; at is json_format's name for where m is
// ("TaskSpec.generatedFrom").
func (r *jsonReader) message(obj *jsonValue, m protoreflect.Message, at string) {
	md := m.Descriptor()
	for i, key := range obj.keys {
		if r.err != "" {
			return
		}
		v := obj.values[i]
		fd := fieldByJSONName(md, key)
		if v.kind == jsonNull {
			continue // null is the default: the field stays unset
		}
		r.names = append(r.names, key)
		where := at + "." + key
		switch {
		case fd.IsMap():
			if v.kind != jsonObject {
				r.fail("Map field %s must be in a dict which is %s at %s", fd.Name(), pyStr(v), where)
				break
			}
			mp := m.Mutable(fd).Map()
			for j, k := range v.keys {
				mk, ok := r.mapKey(fd.MapKey(), k)
				if !ok {
					break
				}
				val, ok := r.scalar(fd.MapValue(), v.values[j], fmt.Sprintf("%s[%s]", where, k))
				if !ok {
					break
				}
				mp.Set(mk, val)
			}
		case fd.IsList():
			if v.kind != jsonArray {
				r.fail("repeated field %s must be in [] which is %s at %s", fd.JSONName(), pyStr(v), at)
				break
			}
			list := m.Mutable(fd).List()
			for j, item := range v.values {
				itemAt := fmt.Sprintf("%s[%d]", where, j)
				if item.kind == jsonNull {
					r.fail("null is not allowed to be used as an element in a repeated field at %s", itemAt)
					break
				}
				if fd.Message() != nil {
					sub := list.NewElement()
					r.message(item, sub.Message(), itemAt)
					list.Append(sub)
					continue
				}
				val, ok := r.scalar(fd, item, itemAt)
				if !ok {
					break
				}
				list.Append(val)
			}
		case fd.Message() != nil:
			r.message(v, m.Mutable(fd).Message(), where)
		default:
			if val, ok := r.scalar(fd, v, where); ok {
				m.Set(fd, val)
			}
		}
		r.names = r.names[:len(r.names)-1]
	}
}

func (r *jsonReader) mapKey(fd protoreflect.FieldDescriptor, key string) (protoreflect.MapKey, bool) {
	if fd.Kind() == protoreflect.StringKind {
		return protoreflect.ValueOfString(key).MapKey(), true
	}
	// The schema's maps have string keys; others are read as proto3 JSON
	// writes them.
	val, ok := r.scalar(fd, &jsonValue{kind: jsonString, text: key}, key)
	if !ok {
		return protoreflect.MapKey{}, false
	}
	return val.MapKey(), true
}

// pyType is the Python type json.loads gives v, for messages that name it.
func pyType(v *jsonValue) string {
	switch v.kind {
	case jsonNull:
		return "NoneType"
	case jsonTrue, jsonFalse:
		return "bool"
	case jsonNumber:
		if strings.ContainsAny(v.text, ".eE") {
			return "float"
		}
		return "int"
	case jsonString:
		return "str"
	case jsonArray:
		return "list"
	}
	return "dict"
}

// pyStr is str() of the Python value json.loads gives v, for messages that
// quote it; inside a container, strings are in repr's quotes.
func pyStr(v *jsonValue) string {
	switch v.kind {
	case jsonString:
		return v.text
	case jsonObject:
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			parts[i] = pyRepr(&jsonValue{kind: jsonString, text: k}) + ": " + pyRepr(v.values[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case jsonArray:
		parts := make([]string, len(v.values))
		for i, item := range v.values {
			parts[i] = pyRepr(item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return pyRepr(v)
}

func pyRepr(v *jsonValue) string {
	switch v.kind {
	case jsonNull:
		return "None"
	case jsonTrue:
		return "True"
	case jsonFalse:
		return "False"
	case jsonNumber:
		if pyType(v) == "float" {
			f, _ := strconv.ParseFloat(v.text, 64)
			return pyFloat(f)
		}
		return strings.TrimPrefix(v.text, "+")
	case jsonString:
		return pyQuote(v.text)
	}
	return pyStr(v)
}

// pyQuote is Python's repr of a str: single quotes unless the text has one
// and no double quote, and what Python does not print (controls, format
// characters, private use, unassigned code points, separators other than
// the space) escaped as \xhh, \uhhhh or \Uhhhhhhhh.
func pyQuote(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteString(q)
	return b.String()
}

// jsonInteger matches the JSON number grammar, which proto3 JSON allows
// inside a string for a 64-bit integer.
var jsonInteger = regexp.MustCompile(`\A-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\z`)

// integer reads an integer field's value: a number or a string holding
// one, either integral (1, 1.0, 1e3), within bits.
func (r *jsonReader) integer(v *jsonValue, at string, bits uint, unsigned bool) (*big.Int, bool) {
	var text string
	switch v.kind {
	case jsonTrue, jsonFalse:
		r.fail("Bool value %s is not acceptable for integer field at %s", pyRepr(v), at)
		return nil, false
	case jsonNumber:
		text = v.text
	case jsonString:
		if strings.Contains(v.text, " ") {
			r.fail(`Couldn't parse integer: "%s" at %s`, v.text, at)
			return nil, false
		}
		if !jsonInteger.MatchString(v.text) {
			r.fail("invalid literal for int() with base 10: %s", pyQuote(v.text))
			return nil, false
		}
		text = v.text
	default:
		r.fail("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyType(v))
		return nil, false
	}
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		f, _, err := big.ParseFloat(text, 10, 64, big.ToNearestEven)
		f64, _ := f.Float64()
		switch {
		case err != nil || math.IsInf(f64, 0) || !f.IsInt():
			if v.kind == jsonString {
				r.fail(`Couldn't parse non-integer string: "%s" at %s`, v.text, at)
			} else {
				r.fail("Couldn't parse integer: %s at %s", pyFloat(f64), at)
			}
			return nil, false
		}
		// Python reads a number with a fraction or an exponent as a
		// float, so its value is the float's.
		n, _ = new(big.Float).SetFloat64(f64).Int(nil)
	}
	lo, hi := new(big.Int).Lsh(big.NewInt(-1), bits-1), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
	if unsigned {
		lo, hi = big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
	}
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		r.fail("Value out of range: %s", n.String())
		return nil, false
	}
	return n, true
}

// scalar reads one value of a non-message field.
func (r *jsonReader) scalar(fd protoreflect.FieldDescriptor, v *jsonValue, at string) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if v.kind != jsonString {
			r.fail("expected string or bytes-like object, got '%s'", pyType(v))
			return protoreflect.Value{}, false
		}
		if v.surrogate {
			r.fail("Unpaired surrogate at %s", at)
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfString(v.text), true
	case protoreflect.EnumKind:
		return r.enum(fd, v, at)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, ok := r.integer(v, at, 64, false)
		if !ok {
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfInt64(n.Int64()), true
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, ok := r.integer(v, at, 32, false)
		if !ok {
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfInt32(int32(n.Int64())), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, ok := r.integer(v, at, 64, true)
		if !ok {
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfUint64(n.Uint64()), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, ok := r.integer(v, at, 32, true)
		if !ok {
			return protoreflect.Value{}, false
		}
		return protoreflect.ValueOfUint32(uint32(n.Uint64())), true
	}
	// bool, float, double and bytes: the schema has none.
	r.fail("field %s of type %s is not supported", fd.Name(), fd.Kind())
	return protoreflect.Value{}, false
}

// jsonEnumNumber is a decimal integer in a string, which the Python
// library reads as an enum's number.
var jsonEnumNumber = regexp.MustCompile(`\A[-+]?[0-9]+\z`)

// enum reads an enum value: its name, or its number as a JSON number or a
// string of digits. An open enum takes a number the schema does not define
// (Validate then refuses it).
func (r *jsonReader) enum(fd protoreflect.FieldDescriptor, v *jsonValue, at string) (protoreflect.Value, bool) {
	ed := fd.Enum()
	var text string
	switch v.kind {
	case jsonString:
		if ev := ed.Values().ByName(protoreflect.Name(v.text)); ev != nil && utf8.ValidString(v.text) {
			return protoreflect.ValueOfEnum(ev.Number()), true
		}
		if !jsonEnumNumber.MatchString(v.text) {
			r.fail("Invalid enum value %s for enum type %s at %s", v.text, ed.FullName(), at)
			return protoreflect.Value{}, false
		}
		text = v.text
	case jsonNumber:
		if strings.ContainsAny(v.text, ".eE") {
			r.fail("Invalid enum value %s for enum type %s at %s", pyRepr(v), ed.FullName(), at)
			return protoreflect.Value{}, false
		}
		text = v.text
	case jsonArray, jsonObject:
		r.fail("unhashable type: '%s'", pyType(v))
		return protoreflect.Value{}, false
	default:
		r.fail("Invalid enum value %s for enum type %s at %s", pyRepr(v), ed.FullName(), at)
		return protoreflect.Value{}, false
	}
	n, _ := new(big.Int).SetString(strings.TrimPrefix(text, "+"), 10)
	if !n.IsInt64() || n.Int64() < math.MinInt32 || n.Int64() > math.MaxInt32 {
		r.fail("Value out of range: %s", n.String())
		return protoreflect.Value{}, false
	}
	return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n.Int64())), true
}
