package taskspec

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A jsonValue is one value of a JSON document, as the reader holds it
// before it is laid onto the message: objects keep their keys in document
// order, and numbers keep their text.
type jsonValue struct {
	kind      jsonKind
	text      string // a string's value, or a number's text
	surrogate bool   // a string with an unpaired \uD800-\uDFFF escape (kept as U+FFFD)
	lone      rune   // the first such escape's value
	keys      []string
	values    []*jsonValue // an object's values, in the order of keys, or an array's items
}

type jsonKind byte

const (
	jsonNull jsonKind = iota
	jsonTrue
	jsonFalse
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// jsonMaxDepth is how deeply arrays and objects may nest; Python's reader
// stops at its recursion limit, about as deep.
const jsonMaxDepth = 1000

// A jsonSyntaxError is a document that is not JSON, with the Python json
// module's message and the character offset it gives.
type jsonSyntaxError struct {
	msg string
	pos int // byte offset into the text
}

// A jsonValueError is JSON that Python's json.loads would accept and
// misread: a repeated key, NaN or Infinity. It has no position.
type jsonValueError struct{ msg string }

func (e *jsonSyntaxError) Error() string { return e.msg }
func (e *jsonValueError) Error() string  { return e.msg }

type jsonScanner struct {
	s     string
	depth int
	err   error
}

// scanJSON reads text as Python's json.loads does, with the Python
// library's hooks: every syntax error gets json's message at json's
// position, in the same order, a key given twice in one object is refused
// when that object closes, and NaN and Infinity are refused where they are
// read.
func scanJSON(text string) (*jsonValue, error) {
	if strings.HasPrefix(text, "\ufeff") {
		return nil, &jsonSyntaxError{"Unexpected UTF-8 BOM (decode using utf-8-sig)", 0}
	}
	sc := &jsonScanner{s: text}
	v, end, ok := sc.value(sc.ws(0))
	if sc.err != nil {
		return nil, sc.err
	}
	if !ok {
		return nil, &jsonSyntaxError{"Expecting value", end}
	}
	if end = sc.ws(end); end != len(text) {
		return nil, &jsonSyntaxError{"Extra data", end}
	}
	return v, nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (sc *jsonScanner) ws(i int) int {
	for i < len(sc.s) && isJSONSpace(sc.s[i]) {
		i++
	}
	return i
}

func (sc *jsonScanner) fail(msg string, pos int) (*jsonValue, int, bool) {
	if sc.err == nil {
		sc.err = &jsonSyntaxError{msg, pos}
	}
	return nil, pos, false
}

// value is json's scan_once: ok false with no error is its StopIteration,
// "no value starts at i", which the caller reports.
func (sc *jsonScanner) value(i int) (*jsonValue, int, bool) {
	s := sc.s
	if i >= len(s) {
		return nil, i, false
	}
	switch c := s[i]; {
	case c == '"':
		return sc.str(i + 1)
	case c == '{' || c == '[':
		if sc.depth++; sc.depth > jsonMaxDepth {
			if sc.err == nil {
				sc.err = &jsonValueError{"nested too deeply"}
			}
			return nil, i, false
		}
		defer func() { sc.depth-- }()
		if c == '{' {
			return sc.object(i + 1)
		}
		return sc.array(i + 1)
	case strings.HasPrefix(s[i:], "null"):
		return &jsonValue{kind: jsonNull}, i + 4, true
	case strings.HasPrefix(s[i:], "true"):
		return &jsonValue{kind: jsonTrue}, i + 4, true
	case strings.HasPrefix(s[i:], "false"):
		return &jsonValue{kind: jsonFalse}, i + 5, true
	}
	if end := numberEnd(s, i); end > i {
		return &jsonValue{kind: jsonNumber, text: s[i:end]}, end, true
	}
	for _, name := range [...]string{"NaN", "Infinity", "-Infinity"} {
		if strings.HasPrefix(s[i:], name) {
			if sc.err == nil {
				sc.err = &jsonValueError{name + " is not a JSON value"}
			}
			return nil, i, false
		}
	}
	return nil, i, false
}

// numberEnd is where the number at i ends, matching json's
// -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, or i when none starts there.
func numberEnd(s string, i int) int {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case j < len(s) && s[j] >= '1' && s[j] <= '9':
		j = digitsEnd(s, j)
	default:
		return i
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j = digitsEnd(s, j+1)
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '-' || s[k] == '+') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			j = digitsEnd(s, k)
		}
	}
	return j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func (sc *jsonScanner) object(i int) (*jsonValue, int, bool) {
	s := sc.s
	obj := &jsonValue{kind: jsonObject}
	i = sc.ws(i)
	if i < len(s) && s[i] == '}' {
		return obj, i + 1, true
	}
	if i >= len(s) || s[i] != '"' {
		return sc.fail("Expecting property name enclosed in double quotes", i)
	}
	i++
	for {
		key, end, ok := sc.str(i)
		if !ok {
			return nil, end, false
		}
		i = sc.ws(end)
		if i >= len(s) || s[i] != ':' {
			return sc.fail("Expecting ':' delimiter", i)
		}
		i = sc.ws(i + 1)
		v, end, ok := sc.value(i)
		if !ok {
			if sc.err != nil {
				return nil, end, false
			}
			return sc.fail("Expecting value", end)
		}
		obj.keys = append(obj.keys, key.text)
		obj.values = append(obj.values, v)
		i = sc.ws(end)
		if i < len(s) && s[i] == '}' {
			i++
			break
		}
		if i >= len(s) || s[i] != ',' {
			return sc.fail("Expecting ',' delimiter", i)
		}
		i = sc.ws(i + 1)
		if i >= len(s) || s[i] != '"' {
			return sc.fail("Expecting property name enclosed in double quotes", i)
		}
		i++
	}
	seen := make(map[string]bool, len(obj.keys))
	for _, k := range obj.keys {
		if seen[k] {
			if sc.err == nil {
				sc.err = &jsonValueError{"duplicate key " + jsonQuote(k)}
			}
			return nil, i, false
		}
		seen[k] = true
	}
	return obj, i, true
}

func (sc *jsonScanner) array(i int) (*jsonValue, int, bool) {
	s := sc.s
	arr := &jsonValue{kind: jsonArray}
	i = sc.ws(i)
	if i < len(s) && s[i] == ']' {
		return arr, i + 1, true
	}
	for {
		v, end, ok := sc.value(i)
		if !ok {
			if sc.err != nil {
				return nil, end, false
			}
			return sc.fail("Expecting value", end)
		}
		arr.values = append(arr.values, v)
		i = sc.ws(end)
		if i < len(s) && s[i] == ']' {
			return arr, i + 1, true
		}
		if i >= len(s) || s[i] != ',' {
			return sc.fail("Expecting ',' delimiter", i)
		}
		i = sc.ws(i + 1)
	}
}

// str reads a string whose opening quote is at i-1, as json's scanstring.
func (sc *jsonScanner) str(i int) (*jsonValue, int, bool) {
	s := sc.s
	begin := i - 1
	var b strings.Builder
	v := &jsonValue{kind: jsonString}
	for {
		j := i
		for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
			j++
		}
		b.WriteString(s[i:j])
		if j >= len(s) {
			return sc.fail("Unterminated string starting at", begin)
		}
		switch s[j] {
		case '"':
			v.text = b.String()
			return v, j + 1, true
		case '\\':
		default:
			return sc.fail("Invalid control character at", j)
		}
		next := j + 1
		if next >= len(s) {
			return sc.fail("Unterminated string starting at", begin)
		}
		if c := s[next]; c != 'u' {
			r, ok := map[byte]string{'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}[c]
			if !ok {
				return sc.fail(`Invalid \escape`, j)
			}
			b.WriteString(r)
			i = next + 1
			continue
		}
		next++
		end := next + 4
		if end >= len(s) {
			return sc.fail(`Invalid \uXXXX escape`, next-1)
		}
		r, ok := hex4(s[next:end])
		if !ok {
			return sc.fail(`Invalid \uXXXX escape`, end-5)
		}
		if utf16.IsSurrogate(r) && r < 0xdc00 && end+6 < len(s) && s[end] == '\\' && s[end+1] == 'u' {
			r2, ok := hex4(s[end+2 : end+6])
			if !ok {
				return sc.fail(`Invalid \uXXXX escape`, end+1)
			}
			if r2 >= 0xdc00 && r2 <= 0xdfff {
				r = utf16.DecodeRune(r, r2)
				end += 6
			}
		}
		if utf16.IsSurrogate(r) {
			if !v.surrogate {
				v.lone = r
			}
			v.surrogate = true
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i = end
	}
}

func hex4(s string) (rune, bool) {
	var r rune
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// lineColumn is the 1-based line and column, in characters, of byte offset
// pos of text, as Python's json module counts them.
func lineColumn(text string, pos int) (int, int) {
	if pos > len(text) {
		pos = len(text)
	}
	before := text[:pos]
	line := strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCountInString(before[start:]) + 1
}
