package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// MarshalYAML writes spec as canonical YAML: one sequence of bytes for a
// spec, so that sidecars can be compared, hashed and diffed. Keys come in
// schema order, empty optional fields are left out, nesting is indented by
// 4 spaces, and difficulty_signals keys come in yaml.v3's order, in which
// "a9" comes before "a10". These are the bytes the eval package wrote for
// the same spec, and those the Python library writes.
//
// It does not validate, so that an invalid spec can be written out for
// inspection and repair. It refuses an enum number the schema does not
// define ([*EnumError]): YAML could only carry it as a spelling, and there
// is none. It also refuses a string that is not valid UTF-8, which yaml.v3
// would write as !!binary and no reader accepts.
//
// For a few inputs yaml.v3 writes bytes that it cannot read back (a
// multi-line string that starts with a space or a line break in a list
// item or solution artifact, a multi-line string or signal key that starts
// with a tab, and a "<<" signal key). MarshalYAML does not copy those; it
// changes the fewest bytes that make the document read back as spec. And
// where yaml.v3's order of difficulty_signals keys would change from run
// to run (for a few key sets that its comparison orders cyclically), it
// writes one fixed order. Every other spec is written byte for byte as
// yaml.v3 writes it.
func MarshalYAML(spec *taskspecv1.TaskSpec) ([]byte, error) {
	if spec == nil {
		return nil, errors.New(errPrefix + "marshal nil task spec")
	}
	if path := invalidUTF8(spec); path != "" {
		return nil, fmt.Errorf("%smarshal task spec: %s: string is not valid UTF-8", errPrefix, path)
	}
	m, err := toMirror(spec)
	if err != nil {
		return nil, err
	}
	return marshalMirror(m)
}

func marshalMirror(m *eval.TaskSpec) ([]byte, error) {
	ordered := needsFixedKeyOrder(m.DifficultySignals)
	var out []byte
	var err error
	if sites := literalFixSites(m); len(sites) > 0 {
		out, err = fixLiterals(m, sites, ordered)
	} else {
		out, err = marshalOnce(m, ordered)
	}
	if err != nil {
		return nil, err
	}
	if signalKeysNeedFix(m.DifficultySignals) {
		out = fixSignalKeys(out)
	}
	return out, nil
}

// marshalOnce is yaml.Marshal of m, with the keys of difficulty_signals in
// the fixed order when ordered (see orderedKey).
func marshalOnce(m *eval.TaskSpec, ordered bool) ([]byte, error) {
	var v any = m
	if ordered {
		v = toOrdered(m)
	}
	out, err := yaml.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	return out, nil
}

// A fixSite is a string field whose literal block yaml.v3 writes with the
// wrong indentation indicator. nested marks the positions (list items and
// solution artifact fields) where the content sits 2 columns, not 4, right
// of the node readers measure the indicator from. path holds the keys from
// the document's root to the field, "" standing for an item of a list.
// literalFixSites, generated into mirror_gen.go, lists them.
type fixSite struct {
	field  *string
	nested bool
	path   []string
}

// A siteStep is one step of the walk that finds the fix sites, from the
// mapping or list it leaves (up, nil at the root) by key, or into a list
// item when key is "". The steps live on the walk's stack; sitePath copies
// them for a site.
type siteStep struct {
	up  *siteStep
	key string
}

// sitePath is the path of a site reached by at and then last.
func sitePath(at *siteStep, last ...string) []string {
	n := len(last)
	for s := at; s != nil; s = s.up {
		n++
	}
	path := make([]string, n)
	copy(path[n-len(last):], last)
	i := n - len(last)
	for s := at; s != nil; s = s.up {
		i--
		// A copy, so that no step of the walk escapes to the heap.
		path[i] = strings.Clone(s.key)
	}
	return path
}

func isBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// needsLiteralFix reports whether yaml.v3 may write s as a literal block
// with a header it cannot read back. Only multi-line text gets a literal
// block; of that, text starting with a tab gets no indicator (the scanner
// then rejects the tab), and text starting with a space or a line break gets
// indicator 4, which is wrong in nested positions unless the text is line
// breaks only (there is no line to misplace).
func needsLiteralFix(s string, nested bool) bool {
	if s == "" || strings.IndexFunc(s, isBreak) < 0 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	switch {
	case first == '\t':
		return true
	case first == ' ' || isBreak(first):
		return nested && strings.TrimFunc(s, isBreak) != ""
	}
	return false
}

// fixLiterals marshals m once with each site replaced by a unique plain
// token, and puts in place of each token the site's literal block with its
// header fixed. The block is yaml.v3's own rendering of the string, taken
// from a small document that holds it under the same keys, so at the same
// indentation and column: a scalar's rendering depends on nothing else
// (yaml.Marshal writes no "..." after a last "|+" block, which would depend
// on what follows).
func fixLiterals(m *eval.TaskSpec, sites []fixSite, ordered bool) ([]byte, error) {
	orig := make([]string, len(sites))
	for i, s := range sites {
		orig[i] = *s.field
	}
	defer func() {
		for i, s := range sites {
			*s.field = orig[i]
		}
	}()
	tokens := make([][]byte, len(sites))
	var base []byte
	for salt := 0; ; salt++ {
		for i, s := range sites {
			token := "taskspecfix" + strconv.Itoa(i) + "z" + strconv.Itoa(salt)
			tokens[i] = []byte(token)
			*s.field = token
		}
		var err error
		if base, err = marshalOnce(m, ordered); err != nil {
			return nil, err
		}
		unique := true
		for _, t := range tokens {
			unique = unique && bytes.Count(base, t) == 1
		}
		if unique {
			break
		}
	}
	out := make([]byte, 0, len(base)+64*len(sites))
	done := 0
	for i, s := range sites {
		at := bytes.Index(base, tokens[i])
		if at < done {
			// Sites come in the order of the fields, which is the
			// document's; a token before the last one means it is not.
			return nil, errLocate
		}
		end := at + len(tokens[i])
		if swallowsBreak(orig[i]) && end < len(base) && base[end] == '\n' {
			end++ // the rendering takes the token's line break: see swallowsBreak
		}
		r, err := siteRendering(orig[i], s.path)
		if err != nil {
			return nil, err
		}
		out = append(out, base[done:at]...)
		out = append(out, fixHeader(r, orig[i], s.nested)...)
		done = end
	}
	return append(out, base[done:]...), nil
}

// siteRendering is yaml.v3's rendering of s at path. With a plain token in
// s's place the site document is P; with s, the bytes before and after s
// are P's bytes before and after the token (its frame), and what lies
// between is s's rendering.
func siteRendering(s string, path []string) ([]byte, error) {
	frame, err := frameAt(path)
	if err != nil {
		return nil, err
	}
	one, err := yaml.Marshal(siteDocument(s, path))
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	pre, suf := frame.pre, frame.suf
	if swallowsBreak(s) && bytes.HasPrefix(suf, []byte("\n")) {
		suf = suf[1:]
	}
	if !bytes.HasPrefix(one, pre) || !bytes.HasSuffix(one, suf) || len(one) < len(pre)+len(suf) {
		return nil, errLocate
	}
	return one[len(pre) : len(one)-len(suf)], nil
}

// A siteFrame is what yaml.v3 writes before and after a plain token in the
// site document of a path.
type siteFrame struct{ pre, suf []byte }

// siteFrames holds the frame of each path met, keyed by its keys joined by
// NULs: a frame depends on the path alone, and the schema has few, so each
// site costs one small marshal rather than two.
var siteFrames sync.Map

func frameAt(path []string) (siteFrame, error) {
	key := strings.Join(path, "\x00")
	if f, ok := siteFrames.Load(key); ok {
		return f.(siteFrame), nil
	}
	const token = "taskspecfix"
	doc, err := yaml.Marshal(siteDocument(token, path))
	if err != nil {
		return siteFrame{}, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	at := bytes.LastIndex(doc, []byte(token)) // the token is the last scalar
	if at < 0 {
		return siteFrame{}, errLocate
	}
	f := siteFrame{pre: doc[:at], suf: doc[at+len(token):]}
	siteFrames.Store(key, f)
	return f, nil
}

// siteDocument holds s at path, in mappings and lists as the document does.
func siteDocument(s string, path []string) any {
	var v any = s
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == "" {
			v = []any{v}
		} else {
			v = map[string]any{path[i]: v}
		}
	}
	return v
}

// swallowsBreak reports whether yaml.v3 writes no line break after s's
// literal block: when s ends in LS or PS, the block's last line ends with
// that break, and yaml.v3 (whose column is then 0) writes what follows, the
// next key's indentation or nothing at the end of the document, right after
// it. Its rendering then replaces the line break a plain token is followed by.
func swallowsBreak(s string) bool {
	return strings.HasSuffix(s, "\u2028") || strings.HasSuffix(s, "\u2029")
}

// errLocate means yaml.v3 laid a string out differently in a small document
// than in the whole one, or wrote the fields out of order. It cannot happen
// with yaml.v3 v3.0.4 (a scalar's rendering does not depend on its
// neighbours, but for the line break swallowsBreak describes), and is an
// error rather than a panic so that a changed yaml.v3 is reported, not
// papered over.
var errLocate = errors.New(errPrefix + "marshal task spec: cannot locate the rendering of a string")

// fixHeader gives a literal block header ("|4-", "|+", ...) the indentation
// indicator readers need: 2 in nested positions, 4 elsewhere. Any other
// rendering (yaml.v3 double-quotes text it cannot write literally) is
// returned unchanged.
func fixHeader(r []byte, s string, nested bool) []byte {
	if len(r) == 0 || r[0] != '|' {
		return r
	}
	end := bytes.IndexByte(r, '\n')
	if end < 0 {
		return r
	}
	chomp := ""
	for _, c := range r[1:end] {
		if c == '-' || c == '+' {
			chomp = string(c)
		}
	}
	indicator := "4"
	if nested {
		indicator = "2"
	}
	out := make([]byte, 0, len(r)+1)
	out = append(out, '|')
	out = append(out, indicator...)
	out = append(out, chomp...)
	return append(out, r[end:]...)
}

// fixSignalKeys rewrites the two kinds of difficulty_signals key yaml.v3
// writes unreadably. A "<<" key is written plain, and then read back (by
// yaml.v3 and every other reader) as a YAML merge key, which fails: it is
// double-quoted instead. A multi-line key starting with a tab gets an
// explicit "? |-" key whose literal block has no indentation indicator, and
// the scanner then rejects the tab: it gets indicator 4 (the content is 4
// columns right of the "?").
//
// The keys sit at exactly 4 columns on the lines after
// "difficulty_signals:", up to the next top-level key; the lines between
// may be empty (a multi-line key's content can be). No other line there
// starts with 4 spaces and "<<: " or "? |", because the content of a
// multi-line key is indented further (its lines may start with a line
// break); and a header without a digit followed
// by a content line starting with a tab can only be a tab-first key.
func fixSignalKeys(out []byte) []byte {
	const head = "\ndifficulty_signals:\n"
	at := bytes.Index(out, []byte(head))
	if at < 0 {
		return out
	}
	var b bytes.Buffer
	b.Grow(len(out) + 8)
	off := at + len(head)
	b.Write(out[:off])
	for off < len(out) {
		nl := bytes.IndexByte(out[off:], '\n')
		// The block ends at the next top-level key. An empty line is still
		// inside it, and so is a line that starts with another line break
		// (yaml.v3 writes a U+2028 after a line break of a multi-line key's
		// content with no indentation before it).
		if r, _ := utf8.DecodeRune(out[off:]); nl < 0 || (r != ' ' && !isBreak(r)) {
			break
		}
		line := out[off : off+nl+1]
		next := out[off+nl+1:]
		switch {
		case bytes.HasPrefix(line, []byte("    <<: ")):
			b.WriteString(`    "<<": `)
			b.Write(line[len("    <<: "):])
		case bytes.HasPrefix(line, []byte("    ? |")) && !bytes.ContainsAny(line, "0123456789") &&
			bytes.HasPrefix(next, []byte("        \t")):
			b.WriteString("    ? |4")
			b.Write(line[len("    ? |"):])
		default:
			b.Write(line)
		}
		off += len(line)
	}
	b.Write(out[off:])
	return b.Bytes()
}

// signalKeysNeedFix reports whether fixSignalKeys has anything to do.
func signalKeysNeedFix(sig map[string]int) bool {
	for k := range sig {
		if k == "<<" || (strings.HasPrefix(k, "\t") && strings.IndexFunc(k, isBreak) >= 0) {
			return true
		}
	}
	return false
}
