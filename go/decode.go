package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

const decodePrefix = errPrefix + "decode task spec: "

// A StrictError reports a YAML document that is refused on purpose,
// although a YAML library would read it: wherever reading it would lose data
// silently (a fraction in an integer field, a null list item or key, a
// second document, a key given twice through an alias), or where YAML
// readers disagree on its meaning (merge keys, tags, a byte order mark at
// the start of a line, a tab starting a line among comments), and for a
// document over [MaxNodes] nodes or [MaxDepth] levels, which is refused
// before it is built. Agreeing with every reader matters more than
// accepting the document. The eval package read these documents, or
// misread them; the Python library refuses the same ones.
//
// A StrictError is found with errors.As, from the [*DecodeError] that
// [ParseYAML] and [Load] return.
type StrictError struct {
	FieldPath string // the field, "" for the document as a whole
	Line      int    // 1-based, 0 when unknown
	Column    int
	Reason    string
}

func (e *StrictError) Error() string {
	var b strings.Builder
	b.WriteString(decodePrefix)
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.FieldPath != "" {
		b.WriteString(e.FieldPath + ": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// ParseYAML decodes a TaskSpec from the YAML document data and validates
// it. Unknown and duplicate keys are rejected at every level, and a
// document that breaks a rule gives a [*ValidationError] ("eval: invalid
// language \"cobol\"").
//
// Every other failure is a [*DecodeError] whose message starts with "eval:
// decode task spec: ". Either error holds every problem of the document,
// as [Check] lists them, with the one a reader that stops at the first
// meets first, so that Error() names it. A document that would lose data
// or that YAML readers disagree on is refused too (see [StrictError]).
//
// Parsing is about meaning: key order, flow style, comments, anchors and
// indentation do not matter. Only [MarshalYAML] is canonical.
func ParseYAML(data []byte) (*taskspecv1.TaskSpec, error) {
	r := examine(data)
	if r.err != nil {
		return nil, r.err
	}
	return r.spec, nil
}

// DecodeYAML is ParseYAML without Validate, for tools that read invalid
// sidecars to report or repair them. The decoding is just as strict. An
// enum spelling the schema does not have ("cobol") cannot be held by the
// message, so it is still an error, a *ValidationError naming the field;
// an empty one decodes to the UNSPECIFIED value.
func DecodeYAML(data []byte) (*taskspecv1.TaskSpec, error) {
	m, w, err := decode(data)
	if err != nil {
		return nil, err
	}
	if len(w.problems) > 0 {
		return nil, newDecodeError(w.problems, nil)
	}
	return fromMirror(m)
}

type position struct{ line, column int }

// decode reads the first document into the Go package's struct shape.
//
// The document is parsed once, into a yaml.Node tree. The schema walk over
// the tree finds every unknown key, duplicate key and value of the wrong
// type, and applies the stricter rules, recording each in w.problems; the
// tree without what it refused is then decoded exactly as the Go package's
// decoder would decode it. A document that cannot be read at all gives a
// *DecodeError with its one problem.
func decode(data []byte) (*eval.TaskSpec, *walker, error) {
	w := &walker{text: source.New(data), budget: MaxNodes}
	m, err := w.decode()
	if err != nil {
		de := alone(err, data)
		if w.errPlain && err == error(w.err) || w.goRejects {
			de.Err = nil // the Go package refuses it too: no stricter refusal
		}
		return nil, w, de
	}
	for _, a := range m.SolutionArtifacts {
		w.artifactPaths = append(w.artifactPaths, a.Path)
	}
	return m, w, nil
}

func (w *walker) decode() (*eval.TaskSpec, error) {
	data := w.text.Bytes()
	if len(data) > MaxDocumentBytes {
		return nil, &StrictError{Reason: fmt.Sprintf("document is larger than %d bytes", MaxDocumentBytes)}
	}
	if hasWideBOM(data) {
		return nil, &StrictError{Line: 1, Column: 1, Reason: "UTF-16 and UTF-32 input is not supported: sidecars are UTF-8"}
	}
	// yaml.v3 skips the first of two byte order marks and reads the second
	// as text, at the start of whatever comes first: a key it misnames, or
	// no key at all. The Python library refuses such a text before reading
	// it, and so does this package; whether the Go package's decoder
	// refuses it too (then the refusal is no stricter one) is its own.
	if bytes.HasPrefix(data, []byte(byteOrderMark+byteOrderMark)) {
		w.goRejects = goPackageRejects(data)
		return nil, twoBOMsError()
	}
	// Text that is not UTF-8 is refused before it is read as YAML, as the
	// Python library refuses it before libyaml sees it: whatever else the
	// text holds (a %YAML directive, a syntax error) comes second. Only two
	// byte order marks at the start come first, as in the Python library.
	if !utf8.Valid(data) {
		w.goRejects = goPackageRejects(data)
		return nil, notUTF8(data)
	}
	if e := innerBOM(w.text); e != nil {
		w.goRejects = goPackageRejects(data)
		return nil, e
	}
	doc, dec, err := w.parseWithinBounds(data)
	if err != nil {
		if errors.Is(err, io.EOF) {
			// No document: yaml.v3 read nothing but comments and blanks.
			if e := commentTab(w.text); e != nil {
				w.goRejects = true // the Go package refuses an empty text too
				return nil, e
			}
		}
		if _, strict := err.(*StrictError); !strict && w.orig == nil {
			// yaml.v3 cannot read some text the Python library reads and
			// then refuses for a reason of its own: the same refusal here.
			if m, e, ok := w.readsStricter(err); ok {
				return m, e
			}
		}
		return nil, err
	}
	if doc.Kind == 0 {
		return nil, errEmptyDocument
	}
	w.pos = make(map[string]position, 24)
	w.document(doc)
	var m eval.TaskSpec
	if w.budget >= 0 { // past the budget, aliases expand too far to be worth decoding
		// What could be read: the tree without the entries and items the
		// walk refused, as the Python library's collecting walk leaves
		// them out of the spec.
		if err := w.decodeRead(doc, &m); err != nil {
			w.unreadable(err)
		}
		if len(w.problems) > 0 && !w.goRejects {
			// Whether the Go package's decoder refuses it too: then no
			// refusal here is a stricter one (a StrictError).
			var scratch eval.TaskSpec
			w.goRejects = w.decodeMirror(doc, &scratch) != nil
		}
	}
	if r, found := yamlscan.FirstControl(data, len(data)); found {
		// The same for a character no YAML reader takes, after the first
		// document: libyaml's reader refuses it as it reads the input.
		return nil, &StrictError{Reason: fmt.Sprintf("invalid YAML: control characters are not allowed (character #x%04X)", r)}
	}
	// The stricter rules: the first misread in the text (see misread),
	// then a second document, then the walk. (Where the text holds a misread
	// or a second document, the Python library stops too, at either, or at
	// a syntax problem; which it meets first is not copied.)
	if err := w.firstMisread(doc); err != nil {
		return nil, err
	}
	if line, more, err := dec.more(w, doc); err != nil {
		return nil, err
	} else if more {
		if e := w.secondDocument(line); e != nil {
			return nil, e
		}
	}
	if w.budget < 0 || w.stop {
		return nil, w.err // past a limit, or at the top, nothing more is read
	}
	return &m, nil
}

// moreThanOneDocument is the refusal of a second document that a "---"
// marker starts: both parsers read it, and yaml.v3 drops it silently.
const moreThanOneDocument = "more than one YAML document: the Go package reads the first and ignores the rest silently"

// secondDocument is the refusal of the text after the first document,
// from line on, as libyaml's parser meets it. A second document is one
// that "---" starts, or directives then "---" (see secondDocumentLine), after
// something before it (TS004, at the marker or the first directive).
// Anything else there is a syntax error: a directive that no "---"
// follows (TS018), or text after the root value, after a "..." end marker
// or not (TS005), at its first token.
func (w *walker) secondDocument(line int) *StrictError {
	text := trimLineBreak(w.text.Line(line))
	if (isMarker(text, "---") || len(text) > 0 && text[0] == '%') && contentBefore(w.text, line) {
		return &StrictError{Line: line, Column: 1, Reason: moreThanOneDocument}
	}
	rest := bytes.TrimLeft(text, " \t")
	column := 1 + utf8.RuneCount(text[:len(text)-len(rest)])
	if directiveBefore(w.text, line) {
		return &StrictError{Line: line, Column: column, Reason: catalogue[codeDirective].Messages[1]}
	}
	return &StrictError{Line: line, Column: column, Reason: catalogue[codeSyntax].Messages[1]}
}

// contentBefore reports whether a line before line holds more than blanks
// or a comment: a document that a "---" on line would follow.
func contentBefore(t *source.Text, line int) bool {
	for l := 1; l < line; l++ {
		if !isCommentOrBlank(t.Line(l)) {
			return true
		}
	}
	return false
}

// directiveBefore reports whether a directive line ("%...") opens the
// document that ends on line, as the Python library's _directive_before
// decides it: walking back over the lines, a "..." end marker first means
// no. libyaml says "did not find expected <document start>" both of a
// directive that no "---" follows and of text after a document's end.
func directiveBefore(t *source.Text, line int) bool {
	for l := min(line, len(t.LineStarts())); l >= 1; l-- {
		text := t.Line(l)
		if bytes.HasPrefix(text, []byte("...")) {
			return false
		}
		if bytes.HasPrefix(text, []byte("%")) {
			return true
		}
	}
	return false
}

// commentTab refuses a tab that starts a line (after any spaces) of a
// text with no document in it, nothing but blanks and comments: libyaml's
// scanner reads it as indentation and fails, where yaml.v3 reads the
// comments and finds no document.
func commentTab(t *source.Text) *StrictError {
	if bytes.IndexByte(t.Bytes(), '\t') < 0 {
		return nil
	}
	for l := 1; l <= len(t.LineStarts()); l++ {
		text := trimLineBreak(t.Line(l))
		rest := bytes.TrimLeft(text, " ")
		if len(rest) > 0 && rest[0] == '\t' {
			return &StrictError{Line: l, Column: 1 + len(text) - len(rest), Reason: tabIndentReason}
		}
	}
	return nil
}

// goPackageRejects reports whether the Go package's decoder refuses data,
// for a text this package refuses before reading it: then the refusal is
// no stricter one.
func goPackageRejects(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var m eval.TaskSpec
	return dec.Decode(&m) != nil
}

// innerBOM refuses a byte order mark past the start of the text, wherever
// it is, as the Python library does before reading anything. The readers
// disagree on one: libyaml skips a mark that starts a line as if it were
// not there, where yaml.v3 reads it as text; and yaml.v3 tests for a mark
// at the start of its read buffer rather than at the character it reads
// (is_bom), so a mark anywhere can make it skip the first character of a
// later line, depending on where its buffer was refilled. None is needed:
// a string that holds U+FEFF is written with the escape \uFEFF.
func innerBOM(t *source.Text) *StrictError {
	start := 0
	if bytes.HasPrefix(t.Bytes(), []byte(byteOrderMark)) {
		start = len(byteOrderMark)
	}
	i := bytes.Index(t.Bytes()[start:], []byte(byteOrderMark))
	if i < 0 {
		return nil
	}
	line, column := t.LineColumn(start + i) // the leading mark is no column
	if column == 1 {
		return &StrictError{Line: line, Column: 1, Reason: lineStartBOMReason}
	}
	return &StrictError{Line: line, Column: column, Reason: "byte order mark inside the text: yaml.v3 can skip a character after it; remove it, or write it as the escape \\uFEFF in a double-quoted string"}
}

// twoBOMsError is the refusal of a text that starts with two byte order
// marks, in the Python library's words.
func twoBOMsError() *StrictError {
	return &StrictError{Line: 1, Column: 1, Reason: "two byte order marks at the start: yaml.v3 misreads the document; remove one"}
}

func hasWideBOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) ||
		bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF})
}

// walker checks a decoded tree against the schema. It records every
// problem in problems (the first also in err) and the position of each
// field's value in pos.
type walker struct {
	text   *source.Text // the document: its bytes, lines and columns
	bangs  int          // 0 unknown, 1 no '!' in the text, 2 some
	pos    map[string]position
	err    *StrictError
	budget int // nodes the walk may still visit, alias expansions included

	// large holds the mappings too large for yaml.v3's duplicate check.
	large *largeMappings
	// problems lists every problem the walk met, in walk order (which is
	// document order): unknown keys, duplicate keys, values of the wrong
	// type and the stricter refusals, each as the Python library's
	// collecting walk words it. bad holds the nodes whose entry or item
	// could not be read, which the spec read for the rules leaves out.
	problems []Violation
	bad      map[*yaml.Node]bool
	emptied  map[*yaml.Node]bool
	// values holds the scalar text of each field as written, for the
	// hints of misspelt enums; artifactPaths the artifact paths read.
	values        map[string]string
	artifactPaths []string
	stop          bool // the document as a whole is refused: nothing more is reported
	errPlain      bool // err is a problem yaml.v3 also refuses, not a stricter rule
	// orig is the text as written when data is a copy yaml.v3 can read
	// (see readsStricter), with the same lines and columns.
	orig      []byte
	goRejects bool // the Go package's decoder refuses the document too
	// doc is the document walked, and starts the positions its nodes
	// start at, gathered on first use.
	doc    *yaml.Node
	starts map[position]bool
}

// fail records a problem at node n, the value (or key) at path, and
// marks n as not read. The first is also kept as w.err, the StrictError a
// caller that stops at one problem sees.
func (w *walker) fail(n *yaml.Node, path, format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	if w.err == nil {
		w.err = &StrictError{FieldPath: path, Line: n.Line, Column: n.Column, Reason: reason}
	}
	w.problems = append(w.problems, Violation{FieldPath: path, Message: withPath(path, reason),
		Line: n.Line, Column: n.Column, Code: reasonCode(reason), Severity: severityError})
	w.markBad(n)
}

// wrong is fail for a value yaml.v3 refuses too (a value of the wrong
// type): the problem is the same, but it is no StrictError, since the Go
// package is no less strict there.
func (w *walker) wrong(n *yaml.Node, path, format string, args ...any) {
	first := w.err == nil
	w.fail(n, path, format, args...)
	if first {
		w.errPlain = true
	}
}

func (w *walker) markBad(n *yaml.Node) {
	if w.bad == nil {
		w.bad = make(map[*yaml.Node]bool)
	}
	w.bad[n] = true
}

// deref follows an alias to the node it names: values are what matter, and
// an alias means the anchored value.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// isNull reports whether n is null as the Python library's is_null reads
// it: plain text that spells null, or "!!null" on such text. "!!null x" is
// not null: yaml.v3 refuses to read it as one.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && (n.Style&yaml.TaggedStyle == 0 || nullText(n.Value))
}

// join is the field path of name inside path (the generated code's name
// for wording.Path).
func join(path, name string) string { return wording.Path(path, name) }

func (w *walker) document(doc *yaml.Node) {
	w.doc = doc
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return
	}
	root := deref(doc.Content[0])
	w.pos[""] = position{root.Line, root.Column}
	if root.Kind == yaml.MappingNode {
		w.mapping(root, "", specFields)
	} else if !isNullNode(root) && !w.bangEmpty(root) {
		w.wrong(root, "", "expected a mapping at the top of the document, got %s", w.describe(root))
		w.stop = true
	} else if w.bangEmpty(root) {
		w.stop = true
		// "!" alone: YAML's non-specific tag makes the empty scalar a
		// string, which yaml.v3 forgets and reads as null, an empty spec.
		w.fail(root, "", `expected a mapping at the top of the document, got the string ""`)
	}
}

// A field kind tells the walk how to check a value.
type fieldKind int

const (
	kString fieldKind = iota
	kInt
	kStringList
	kIntMap
	kMessage
	kMessageList
)

type field struct {
	kind fieldKind
	sub  map[string]field // for kMessage and kMessageList
}

func (w *walker) mapping(n *yaml.Node, path string, fields map[string]field) {
	if w.flowQuestion(n, path) {
		return
	}
	if len(n.Content) > 2*largeMapping {
		w.noteLarge(n, path)
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		dv := deref(v)
		if !w.count(dv, "", 1) {
			return
		}
		keyWasBad := w.bad[k]
		if w.bangEmpty(k) {
			// "? !": the non-specific tag makes the empty key a string, which
			// no struct has; yaml.v3 reads it as null and drops the entry.
			w.unknownKey(k, path, fields)
			w.badAt(n.Content[i], k, keyWasBad)
			continue
		}
		if !w.key(k, path) {
			w.badAt(n.Content[i], k, keyWasBad)
			continue
		}
		f, ok := fields[k.Value]
		if !ok {
			w.unknownKey(k, path, fields)
			// A key written as an alias (*k) is refused here, not where
			// its anchor stands, as the value of another field, say.
			w.badAt(n.Content[i], k, keyWasBad)
			w.goRejects = true // the Go package's decoder knows its fields
			continue
		}
		sub := join(path, k.Value)
		if first, dup := seen[k.Value]; dup {
			w.duplicate(k, first, dv, sub)
			w.dropEntry(n.Content[i], n.Content[i+1])
			continue
		}
		seen[k.Value] = k
		w.pos[sub] = position{dv.Line, dv.Column}
		wasBad := w.bad[dv]
		w.value(dv, sub, f)
		w.badAt(v, dv, wasBad)
	}
}

// badAt moves the refusal of value, an anchored node met through the alias
// occurrence, from the node to the alias: the value is refused where the
// alias puts it, and still read where the anchor stands (task_id: &a x,
// then an integer field: *a).
func (w *walker) badAt(occurrence, value *yaml.Node, wasBad bool) {
	if occurrence != value && !wasBad && w.bad[value] {
		delete(w.bad, value)
		w.markBad(occurrence)
	}
}

// count spends n of the walk's node budget on node, which is visited once
// for each alias that leads to it, and reports whether any is left. An alias
// costs one node where it is written, but the walk visits what it names
// each time, so this is what bounds a document of nested aliases (a
// "billion laughs"), as the Python library's walk bounds it.
func (w *walker) count(node *yaml.Node, path string, n int) bool {
	if w.budget < 0 {
		return false
	}
	w.budget -= n
	if w.budget < 0 {
		w.fail(node, path, "document expands to more than %d nodes", MaxNodes)
		return false
	}
	return true
}

// duplicate refuses a key seen before in the same mapping. yaml.v3 finds
// two keys written alike; a key spelled through an alias (&k edge_count,
// then *k : 3) it does not, and keeps the last value silently. The position
// is the second key's, or its value's when the key is an alias, which
// stands where the anchored key was written, earlier.
func (w *walker) duplicate(k, first, value *yaml.Node, path string) {
	at := k
	if k.Line < first.Line || (k.Line == first.Line && k.Column <= first.Column) {
		at = value
	}
	w.fail(at, path, "duplicate key %s (first defined at line %d)", wording.Quote(k.Value), first.Line)
}

// dropEntry leaves the mapping entry whose key and value are the nodes
// written, key and value, out of the spec read. A node an alias names is
// not marked: it is read where it is written.
func (w *walker) dropEntry(key, value *yaml.Node) {
	for _, n := range []*yaml.Node{key, value} {
		if n.Kind == yaml.AliasNode {
			delete(w.bad, deref(n))
		}
	}
	w.markBad(key)
	if key.Kind != yaml.AliasNode {
		w.goRejects = true // yaml.v3 finds two keys written alike
	}
}

// key checks a mapping key: no null keys (yaml.v3 skips the entry
// silently), no merge keys (readers disagree on them, and YAML 1.2 has
// none), and no tag but !!str. It reports whether the key is a usable
// string.
func (w *walker) key(k *yaml.Node, path string) bool {
	if k.Kind != yaml.ScalarNode {
		w.wrong(k, path, "mapping keys must be strings, got %s", w.describe(k))
		return false
	}
	switch {
	case k.Tag == "!!merge" && k.Style&yaml.TaggedStyle == 0:
		// A plain "<<". A key tagged !!merge is refused by stringOK, for
		// its tag, as the Python library refuses it.
		w.fail(k, path, "merge keys (<<) are not supported; quote the key to mean the string")
		return false
	case isNull(k) && (k.Style&yaml.TaggedStyle == 0 || nullText(k.Value)):
		shown := wording.Clip(k.Value)
		if shown == "" {
			shown = "an empty key"
		}
		w.fail(k, path, "null key (%s) is not allowed: yaml.v3 skips such an entry silently; quote the key to mean a string", shown)
		return false
	}
	return w.stringOK(k, path)
}

func nullText(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// stringOK checks the tag of a scalar read as a string: none, !!str, or
// !!null on null text. Any other tag (!!binary, !!int, !custom) changes how
// readers read the value, each in its own way.
func (w *walker) stringOK(n *yaml.Node, path string) bool {
	if n.Style&yaml.TaggedStyle == 0 || n.Tag == "!!str" || (n.Tag == "!!null" && nullText(n.Value)) {
		return true
	}
	w.fail(n, path, "unsupported tag %s for a string field", wording.Quote(n.Tag))
	return false
}

func (w *walker) value(n *yaml.Node, path string, f field) {
	switch f.kind {
	case kString:
		if n.Kind == yaml.ScalarNode {
			w.stringOK(n, path)
		} else {
			w.wrong(n, path, "expected a string, got %s", w.describe(n))
		}
	case kInt:
		if n.Kind == yaml.ScalarNode {
			w.integer(n, path)
		} else {
			w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		}
	case kMessage:
		if n.Kind == yaml.MappingNode {
			w.mapping(n, path, f.sub)
		} else if w.bangEmpty(n) {
			w.fail(n, path, `expected a mapping for %s, got the string ""`, path)
		} else if !isNullNode(n) {
			w.wrong(n, path, "expected a mapping for %s, got %s", path, w.describe(n))
		}
	case kStringList, kMessageList:
		if w.bangEmpty(n) {
			w.fail(n, path, `expected a sequence, got the string ""`)
			return
		}
		if n.Kind != yaml.SequenceNode && !isNullNode(n) {
			w.wrong(n, path, "expected a sequence, got %s", w.describe(n))
			return
		}
		if n.Kind != yaml.SequenceNode || !w.count(n, path, len(n.Content)) || w.flowQuestion(n, path) {
			return
		}
		for i, item := range n.Content {
			item = deref(item)
			ipath := fmt.Sprintf("%s[%d]", path, i)
			w.pos[ipath] = position{item.Line, item.Column}
			switch {
			case w.bangEmpty(item) && f.kind == kMessageList:
				// As for any item that is not a mapping, the Python library
				// adds it before it reads it: an empty one stays in the list.
				w.fail(item, ipath, `expected a mapping for %s, got the string ""`, ipath)
				w.empty(item)
				continue
			case w.bangEmpty(item):
				w.fail(item, ipath, "the non-specific tag ! alone is the empty string, which yaml.v3 reads as null and drops from the list silently; write '' for an empty item")
				continue
			}
			if isNull(item) {
				empty := "''"
				if f.kind == kMessageList {
					empty = "{}"
				}
				w.fail(item, ipath, "null item is not allowed: yaml.v3 drops it from the list silently; write %s for an empty item", empty)
				continue
			}
			switch {
			case f.kind == kStringList && item.Kind == yaml.ScalarNode:
				w.stringOK(item, ipath)
			case f.kind == kStringList:
				w.wrong(item, ipath, "expected a string, got %s", w.describe(item))
			case item.Kind == yaml.MappingNode:
				w.mapping(item, ipath, f.sub)
				if w.bad[item] && f.kind == kMessageList {
					// Refused whole (a '?' yaml.v3 cannot read): the Python
					// library keeps an empty item in its place, as for an
					// item that is not a mapping.
					w.empty(item)
				}
			default:
				// The Python library adds the item before it reads it: an
				// empty one stays in the list.
				w.wrong(item, ipath, "expected a mapping for %s, got %s", ipath, w.describe(item))
				w.empty(item)
			}
			if w.budget < 0 {
				return
			}
		}
	case kIntMap:
		if w.bangEmpty(n) {
			w.fail(n, path, `expected a mapping, got the string ""`)
		} else if n.Kind != yaml.MappingNode && !isNullNode(n) {
			w.wrong(n, path, "expected a mapping, got %s", w.describe(n))
		}
		if n.Kind != yaml.MappingNode || w.flowQuestion(n, path) {
			return
		}
		if len(n.Content) > 2*largeMapping {
			w.noteLarge(n, path)
		}
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := deref(n.Content[i]), deref(n.Content[i+1])
			if !w.count(v, "", 1) {
				return
			}
			wasBad, keyWasBad := w.bad[v], w.bad[k]
			if !w.key(k, path) {
				w.badAt(n.Content[i], k, keyWasBad)
				continue
			}
			sub := fmt.Sprintf("%s[%q]", path, k.Value)
			w.pos[sub] = position{v.Line, v.Column}
			if first, dup := seen[k.Value]; dup {
				w.duplicate(k, first, v, sub)
				w.dropEntry(n.Content[i], n.Content[i+1])
				continue
			}
			seen[k.Value] = k
			if v.Kind == yaml.ScalarNode {
				w.integer(v, sub)
			} else {
				w.wrong(v, sub, "expected an integer, got %s", w.describe(v))
			}
			w.badAt(n.Content[i+1], v, wasBad)
		}
	}
}

var (
	minInt64 = new(big.Rat).SetInt64(math.MinInt64)
	maxInt64 = new(big.Rat).SetInt64(math.MaxInt64)
)

// integer checks a scalar read into an integer field. yaml.v3 stores
// int64(f) for a float f: it truncates a fraction, wraps a value out of
// range and keeps float64's rounding of a large integer, each of which
// changes the number written, so each is refused. So are tags other than
// !!int and !!float, and the non-specific tag "!", which YAML reads as a
// string and yaml.v3 ignores.
func (w *walker) integer(n *yaml.Node, path string) {
	explicit := n.Style&yaml.TaggedStyle != 0
	if explicit && n.Tag != "!!int" && n.Tag != "!!float" {
		if n.Tag == "!!null" && nullText(n.Value) {
			return
		}
		w.fail(n, path, "expected an integer, got %s %s", n.Tag, wording.Quote(n.Value))
		return
	}
	if !explicit && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && w.bangTagged(n) {
		if n.Value == "" {
			// libyaml reads "!" alone as the empty string, quoted.
			w.fail(n, path, "expected an integer, got the string %s", wording.Quote(n.Value))
		} else {
			w.fail(n, path, "expected an integer, got the tagged string %s", wording.Quote(n.Value))
		}
		return
	}
	if !explicit && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		return
	}
	resolved := (&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag()
	if resolved == "!!null" && !explicit {
		return
	}
	if n.Tag == "!!int" && resolved != "!!int" {
		w.fail(n, path, "cannot read %s as an !!int: it is a %s", wording.Quote(n.Value), strings.TrimPrefix(resolved, "!!"))
		return
	}
	if resolved == "!!int" && n.Tag != "!!float" {
		var i int64
		if (&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: n.Value}).Decode(&i) != nil {
			w.wrong(n, path, "integer %s is out of the int64 range", wording.Quote(n.Value))
		}
		return
	}
	if resolved != "!!int" && resolved != "!!float" {
		w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		return
	}
	if resolved == "!!int" {
		// An integer tagged !!float: yaml.v3 reads the integer (a leading 0
		// makes it octal), then stores it through float64, as the Python
		// library reads it too.
		var i int64
		if (&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: n.Value}).Decode(&i) != nil {
			w.wrong(n, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		} else if f := float64(i); f >= 1<<63 || int64(f) != i {
			w.fail(n, path, "number %s does not survive float64, which yaml.v3 reads it through", wording.Quote(n.Value))
		}
		return
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return
	}
	if math.IsInf(f, 0) {
		w.fail(n, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		return
	}
	if math.IsNaN(f) || f != math.Trunc(f) {
		w.fail(n, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		return
	}
	exact, ok := new(big.Rat).SetString(strings.ReplaceAll(n.Value, "_", ""))
	if !ok && f == 0 && strings.ContainsAny(mantissa(n.Value), "123456789") {
		// An exponent too large for big.Rat: a value float64 holds as 0 but
		// that is not 0 lies strictly between -1 and 1.
		w.fail(n, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		return
	}
	got := new(big.Rat)
	got.SetFloat64(f)
	if ok && exact.Cmp(got) != 0 {
		switch {
		case !exact.IsInt():
			w.fail(n, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		case exact.Cmp(minInt64) >= 0 && exact.Cmp(maxInt64) <= 0:
			w.fail(n, path, "number %s does not survive float64, which yaml.v3 reads it through", wording.Quote(n.Value))
		default:
			w.fail(n, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		}
		return
	}
	if got.Cmp(minInt64) < 0 || got.Cmp(maxInt64) > 0 {
		w.fail(n, path, "number %s is out of the int64 range", wording.Quote(n.Value))
	}
}

// bangEmpty reports whether n is the empty plain scalar written with the
// non-specific tag "!" alone: the empty string to YAML (and to libyaml, and
// so to the Python library), null to yaml.v3, which forgets the tag.
func (w *walker) bangEmpty(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && isNull(n) && n.Style&yaml.TaggedStyle == 0 && w.bangTagged(n)
}

// bangTagged reports whether an untagged plain scalar was written with the
// non-specific tag "!" ("! 5"). yaml.v3 drops that tag without a trace in
// the node, so the source is read: a node starts at its properties.
func (w *walker) bangTagged(n *yaml.Node) bool {
	if w.bangs == 0 {
		// Looked for once: every integer asks, and a document of many
		// integers and one '!' must not be scanned once per integer.
		w.bangs = 1
		if bytes.IndexByte(w.text.Bytes(), '!') >= 0 {
			w.bangs = 2
		}
	}
	if w.bangs == 1 {
		return false
	}
	at := w.text.Offset(n.Line, n.Column)
	if at < 0 {
		return false
	}
	t := tagAt(w.text.Bytes(), at)
	// An empty node's properties may run on to the next line, where the
	// tag may be the next node's: a named one ("!a"), which yaml.v3 keeps,
	// or "!" where the next node starts.
	return t >= 0 && (t+1 == len(w.text.Bytes()) || w.text.Bytes()[t+1] == '<' || !isTagChar(w.text.Bytes()[t+1])) &&
		(n.Value != "" || t == at || !w.nodeStartsAt(t))
}

// nodeStartsAt reports whether a node of the document starts at offset at
// (at its properties, if it has any).
func (w *walker) nodeStartsAt(at int) bool {
	if w.starts == nil {
		w.starts = make(map[position]bool)
		if w.doc != nil {
			visit(w.doc, func(n *yaml.Node) { w.starts[position{n.Line, n.Column}] = true })
		}
	}
	line, column := w.text.LineColumn(at)
	return w.starts[position{line, column}]
}

// flowDepth returns how many more [ and { than ] and } text holds: how
// much deeper inside [] and {} its end is than its start, as near as the
// brackets alone tell.
func flowDepth(text []byte) int {
	return bytes.Count(text, []byte("[")) + bytes.Count(text, []byte("{")) -
		bytes.Count(text, []byte("]")) - bytes.Count(text, []byte("}"))
}

// lineStartBOMReason is the refusal of a byte order mark that starts a
// line.
const lineStartBOMReason = "byte order mark at the start of a line: libyaml skips it, yaml.v3 reads it as text; remove it"

// A misread is a place where libyaml (and so the Python library) and
// yaml.v3 read the text differently and only libyaml refuses it, or both
// read it but differently: a tag libyaml ends at '[', ']' or ',', a plain
// scalar ending in ':' inside [] or {}, the escape \' in a double-quoted
// scalar. Each is refused at the first one in the text.
type misread struct {
	err    *StrictError
	at     int  // the offset of the token it is in
	syntax bool // libyaml refuses the text: a syntax error
}

// misreads returns the first misread of each kind in the tree doc, parsed
// by yaml.v3 from w's text (or from a cut of it), in no particular order.
func (w *walker) misreads(doc *yaml.Node) []misread {
	var found []misread
	if err, syntax, at := tagEndingEarly(w.text, doc); err != nil {
		found = append(found, misread{err, at, syntax})
	}
	if bytes.ContainsAny(w.text.Bytes(), "[{") {
		if err := w.flowColons(doc); err != nil {
			found = append(found, misread{err, w.text.Offset(err.Line, err.Column), true})
		}
	}
	if err, at := apostropheEscape(w.text, doc); err != nil {
		found = append(found, misread{err, at, true})
	}
	if bytes.IndexByte(w.text.Bytes(), '\t') >= 0 && bytes.IndexByte(w.text.Bytes(), '#') >= 0 {
		if err, at := w.tabs(doc); err != nil {
			found = append(found, misread{err, at, true})
		}
	}
	return found
}

// tabs refuses the first tab that libyaml fails on as indentation and
// yaml.v3 reads past, with a comment:
//
//   - a tab that starts a line (after any spaces) holding nothing or a
//     comment, after a comment and before any other text: a comment,
//     "\t", then "# more". yaml.v3 gathers the comments around it.
//   - a tab between a block "?" or ":" indicator at the start of a line
//     (after any "- ", "? " or ": ") and a comment: "?\t# key". libyaml
//     reads a tab there as indentation, as after "- "; yaml.v3 reads a
//     comment after any token but "-" with the blanks before it.
//
// Quoted and block scalars, where such a line is text, and flow
// collections, where tabs are blanks, are left out.
func (w *walker) tabs(doc *yaml.Node) (*StrictError, int) {
	data := w.text.Bytes()
	var spans [][2]int         // offsets where a line start is inside a node
	trailing := map[int]bool{} // lines a comment ends
	visit(doc, func(n *yaml.Node) {
		if n.LineComment != "" {
			trailing[n.Line] = true
		}
		at := w.text.Offset(n.Line, n.Column)
		if at < 0 {
			return
		}
		switch {
		case isCollection(n, true):
			if end := closingBracket(data, at); end > at {
				spans = append(spans, [2]int{at, end})
			} else {
				spans = append(spans, [2]int{at, len(data)})
			}
		case n.Kind == yaml.ScalarNode && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0:
			start := pastProperties(data, at)
			if start < len(data) && (data[start] == '"' || data[start] == '\'') {
				spans = append(spans, [2]int{start, yamlscan.SkipQuoted(data, start)})
			}
		case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
			line := w.text.Line(n.Line)
			indent := len(line) - len(bytes.TrimLeft(line, " "))
			spans = append(spans, [2]int{at, yamlscan.SkipBlockScalar(data, pastProperties(data, at), indent)})
		}
	})
	// The lines are read in order, so the spans are too, by their starts:
	// a line start is inside one when the furthest end of those that start
	// before it lies past it. (Checking each line against every span would
	// cost lines times nodes on a large document.)
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	next, furthest := 0, -1
	inside := func(at int) bool {
		for ; next < len(spans) && spans[next][0] < at; next++ {
			furthest = max(furthest, spans[next][1])
		}
		return at < furthest
	}
	starts := w.text.LineStarts()
	afterComment, ended, rootLine := false, false, rootOf(doc).Line
	for l := 1; l <= len(starts); l++ {
		if inside(starts[l-1]) {
			afterComment = false
			continue
		}
		text := trimLineBreak(w.text.Line(l))
		rest := bytes.TrimLeft(text, " \t")
		switch {
		case isMarker(text, "---") && l > rootLine, ended && len(rest) > 0 && rest[0] != '#' && rest[0] != '%':
			// The next document starts: libyaml's parser stops there, and
			// its scanner reads no further. After "...", it reads on to the
			// next token, over comments and directives.
			return nil, 0
		case isMarker(text, "---") || isMarker(text, "..."):
			// A comment after the marker is one the tab may follow.
			ended = ended || text[0] == '.'
			after := bytes.TrimLeft(text[3:], " \t")
			afterComment = len(after) > 0 && after[0] == '#'
			continue
		}
		if len(rest) > 0 && rest[0] != '#' {
			if tab := indicatorTab(text); tab >= 0 {
				return tabError(w.text, doc, l, starts[l-1]+tab)
			}
			// (yaml.v3 keeps a comment right after "- " as a foot comment.)
			afterComment = trailing[l] || indicatorsThenComment(text)
			continue
		}
		if tab := bytes.IndexByte(text[:len(text)-len(rest)], '\t'); tab >= 0 && afterComment {
			return tabError(w.text, doc, l, starts[l-1]+tab)
		}
		if len(rest) > 0 {
			afterComment = true
		}
	}
	return nil, 0
}

// tabError refuses the tab at offset at, on line, unless the document
// after doc starts before it, where libyaml's parser stops, short of it
// (a block "?" in the first column after a mapping that is indented).
func tabError(t *source.Text, doc *yaml.Node, line, at int) (*StrictError, int) {
	// The search for the second document sees every line of the first,
	// an empty key's too ("? \t#c" after "a: 1", see afterIndicator).
	if next, _, found := secondDocumentLine(t.Bytes(), doc); found {
		// Past directives, up to the next token, which libyaml's scanner
		// reads as it looks for "---".
		if bytes.HasPrefix(t.Line(next), []byte("%")) {
			for next <= line && (bytes.HasPrefix(t.Line(next), []byte("%")) || isCommentOrBlank(t.Line(next))) {
				next++
			}
		}
		if next <= line {
			return nil, 0
		}
	}
	_, column := t.LineColumn(at)
	return &StrictError{Line: line, Column: column, Reason: tabIndentReason}, at
}

// tabIndentReason is the refusal of a tab that libyaml's scanner reads as
// indentation (the Python library's TAB, in bridge/_decode_load.py).
const tabIndentReason = "invalid YAML: a tab character cannot indent YAML"

// isCommentOrBlank reports whether line holds nothing but blanks and a
// comment.
func isCommentOrBlank(line []byte) bool {
	rest := bytes.TrimLeft(trimLineBreak(line), " \t")
	return len(rest) == 0 || rest[0] == '#'
}

// byteOrderMark is U+FEFF in UTF-8. libyaml's scanner skips one at the
// start of a line as it looks for the next token; yaml.v3 reads one past the
// start of the text as text.
const byteOrderMark = "\xef\xbb\xbf"

// indicatorTab returns the offset in line of a tab between a "?" or ":"
// indicator, in the run of block indicators that starts the line, and a
// comment after it, or -1.
func indicatorTab(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	for i < len(line) {
		c := line[i]
		if c != '-' && c != '?' && c != ':' || i+1 < len(line) && !yamlscan.IsBlank(line[i+1]) {
			return -1 // not an indicator: a node starts here
		}
		j := i + 1
		for j < len(line) && yamlscan.IsBlank(line[j]) {
			j++
		}
		if tab := bytes.IndexByte(line[i+1:j], '\t'); tab >= 0 && c != '-' && j < len(line) && line[j] == '#' {
			return i + 1 + tab
		}
		i = j
	}
	return -1
}

// indicatorsThenComment reports whether line is a run of block indicators
// ("- ", "? ", ": ") that a comment ends: "  - #c".
func indicatorsThenComment(line []byte) bool {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	for i < len(line) && strings.IndexByte("-?:", line[i]) >= 0 && (i+1 == len(line) || yamlscan.IsBlank(line[i+1])) {
		for i++; i < len(line) && yamlscan.IsBlank(line[i]); i++ {
		}
	}
	return i < len(line) && line[i] == '#' && i > 0 && yamlscan.IsBlank(line[i-1])
}

// firstMisread returns the refusal of the first misread in the text, or
// nil.
func (w *walker) firstMisread(doc *yaml.Node) *StrictError {
	var first *misread
	for _, m := range w.misreads(doc) {
		if first == nil || m.at < first.at {
			first = &m
		}
	}
	if first == nil {
		return nil
	}
	return first.err
}

// syntaxBefore returns the first misread of the tree doc that libyaml
// refuses as a syntax error, when it comes before the node past a bound,
// bound, in the text; otherwise it returns bound. libyaml's scanner reads
// ahead of its parser, so whether it meets such an error before the parser
// builds the node past the bound depends on the layout of the text; both
// libraries report whichever comes first in the text.
func (w *walker) syntaxBefore(doc *yaml.Node, bound *StrictError) *StrictError {
	first, boundAt := bound, w.text.Offset(bound.Line, bound.Column)
	for _, m := range w.misreads(doc) {
		if m.syntax && m.at < boundAt {
			first, boundAt = m.err, m.at
		}
	}
	return first
}

// apostropheEscape refuses the first double-quoted scalar of the tree doc
// that holds the escape \', which YAML does not have: libyaml refuses it,
// yaml.v3 reads an apostrophe. It returns the offset of the scalar too.
func apostropheEscape(t *source.Text, doc *yaml.Node) (*StrictError, int) {
	if !bytes.Contains(t.Bytes(), []byte(`\'`)) {
		return nil, 0
	}
	var (
		found   *StrictError
		foundAt int
	)
	visit(doc, func(n *yaml.Node) {
		if found != nil || n.Kind != yaml.ScalarNode || n.Style&yaml.DoubleQuotedStyle == 0 {
			return
		}
		at := t.Offset(n.Line, n.Column)
		if at < 0 {
			return
		}
		open := bytes.IndexByte(t.Bytes()[at:], '"') // past the properties, which hold no '"'
		if open < 0 {
			return
		}
		for i := at + open + 1; i < len(t.Bytes()) && t.Bytes()[i] != '"'; i++ {
			if t.Bytes()[i] != '\\' || i+1 == len(t.Bytes()) {
				continue
			}
			if t.Bytes()[i+1] == '\'' {
				line, column := t.LineColumn(i)
				found, foundAt = &StrictError{Line: line, Column: column,
					Reason: badEscapeReason}, at+open
				return
			}
			i++
		}
	})
	return found, foundAt
}

// flowColons refuses a plain scalar ending in ':' inside [] or {}
// ([go, a:, b]): yaml.v3 reads "a:", libyaml cannot read the document.
//
// Inside [] and {}, yaml.v3 ends a plain scalar at ": " or at one of
// ",?[]{}", and libyaml fails on a ':' followed by one of ",?[]{}". So a
// scalar yaml.v3 reads as ending in ':' is one libyaml fails on, unless it
// ended at ": ": the key "a:" of {a:: 1} is the same to both readers.
func (w *walker) flowColons(doc *yaml.Node) *StrictError {
	var found *yaml.Node
	visit(doc, func(n *yaml.Node) {
		if !isCollection(n, true) {
			return
		}
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && c.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 &&
				strings.HasSuffix(c.Value, ":") &&
				(found == nil || c.Line < found.Line || (c.Line == found.Line && c.Column < found.Column)) &&
				!endsAtColon(w.text, c) {
				found = c // the first in the text, as a parser meets it
			}
		}
	})
	if found == nil {
		return nil
	}
	// At the scalar's text, past its anchor and tag ("!t", a line break,
	// then "a:"), where libyaml started scanning it.
	line, column := found.Line, found.Column
	if at := w.text.Offset(found.Line, found.Column); at >= 0 {
		line, column = w.text.LineColumn(pastProperties(w.text.Bytes(), at))
	}
	return &StrictError{Line: line, Column: column, Reason: flowColonReason(found.Value)}
}

// flowColonReason is the refusal of a plain scalar ending in ':' inside []
// or {}, quoting its value.
func flowColonReason(value string) string {
	return fmt.Sprintf("the plain scalar %q ends in ':' inside [] or {}: YAML readers disagree on it; quote the string", value)
}

// endsAtColon reports whether yaml.v3 ended the plain scalar n, inside []
// or {}, at the ": " after it rather than at a flow indicator.
func endsAtColon(t *source.Text, n *yaml.Node) bool {
	at := t.Offset(n.Line, n.Column)
	if at < 0 {
		return false
	}
	end := flowPlainEnd(t.Bytes(), pastProperties(t.Bytes(), at))
	return end < len(t.Bytes()) && t.Bytes()[end] == ':'
}

// pastProperties returns the offset of the content of the node whose
// anchor and tag, if it has them, start at offset at, as yaml.v3 reads
// them: its tags may hold ',', '[' and ']'.
func pastProperties(data []byte, at int) int {
	_, next := properties(data, at, true)
	return next
}

// propertiesEnd returns the offset just past the last of the properties
// that start at offset at, which may be on a later line than the first,
// as libyaml ends them, or at when there are none.
func propertiesEnd(data []byte, at int) int {
	end, _ := properties(data, at, false)
	return end
}

// properties returns the offset just past the last of the properties (at
// most one anchor and one tag, in either order, "&a !t" or "!t &a") that
// start at offset at, or at when there are none, and the offset past the
// blanks, line breaks and comments after them. libyaml ends a tag at ',',
// '[' or ']'; with v3, the tag ends where yaml.v3 ends it, past them.
func properties(data []byte, at int, v3 bool) (end, next int) {
	end, next = at, at
	anchor, tag := false, false
	for at < len(data) {
		switch {
		case data[at] == '&' && !anchor:
			anchor = true
			for at++; at < len(data) && isAnchorChar(data[at]); at++ {
			}
		case data[at] == '!' && !tag && at+1 < len(data) && data[at+1] == '<':
			tag = true
			closing := bytes.IndexByte(data[at:], '>')
			if closing < 0 {
				return len(data), len(data)
			}
			at += closing + 1
		case data[at] == '!' && !tag:
			tag = true
			for at++; at < len(data) && (isTagChar(data[at]) || (v3 && (data[at] == ',' || data[at] == '[' || data[at] == ']'))); at++ {
			}
		default:
			return end, next
		}
		end = at
		at = pastSeparation(data, at)
		next = at
	}
	return end, next
}

// pastSeparation returns the offset past the blanks, line breaks and
// comments at offset at.
func pastSeparation(data []byte, at int) int {
	for at < len(data) {
		switch n := yamlscan.LineBreakAt(data, at); {
		case n > 0:
			at += n
		case yamlscan.IsBlank(data[at]):
			at++
		case data[at] == '#':
			for at < len(data) && yamlscan.LineBreakAt(data, at) == 0 {
				at++
			}
		default:
			return at
		}
	}
	return at
}

// blankzAt reports whether offset i of data holds a blank, a line break or
// the end of the text (a NUL or past it), which end a token.
func blankzAt(data []byte, i int) bool {
	return i >= len(data) || yamlscan.IsBlank(data[i]) || data[i] == 0 || yamlscan.LineBreakAt(data, i) > 0
}

// flowPlainEnd returns the offset just past the last character yaml.v3
// reads into the plain scalar starting at offset at inside [] or {}: it
// ends before ':' and a blank, a line break or the end, before one of
// ",?[]{}", and before a comment or a document marker after a line break.
func flowPlainEnd(data []byte, at int) int {
	blankz := func(i int) bool { return blankzAt(data, i) }
	end, lineStart := at, false
	for i := at; i < len(data); {
		if data[i] == '#' || (lineStart && i+3 <= len(data) &&
			(string(data[i:i+3]) == "---" || string(data[i:i+3]) == "...") && blankz(i+3)) {
			return end
		}
		for !blankz(i) {
			if (data[i] == ':' && blankz(i+1)) || bytes.IndexByte([]byte(",?[]{}"), data[i]) >= 0 {
				return end
			}
			i++ // one byte at a time: the bytes of a multi-byte character are none of these
			end = i
		}
		lineStart = false
		for i < len(data) && data[i] != 0 {
			if n := yamlscan.LineBreakAt(data, i); n > 0 {
				i, lineStart = i+n, true
			} else if yamlscan.IsBlank(data[i]) {
				i, lineStart = i+1, false
			} else {
				break
			}
		}
		if i < len(data) && data[i] == 0 {
			return end
		}
	}
	return end
}

// visit calls fn on every node of the tree once; aliases are not followed,
// since the node they name is visited where it is written.
func visit(n *yaml.Node, fn func(*yaml.Node)) {
	fn(n)
	for _, c := range n.Content {
		visit(c, fn)
	}
}

// notUTF8 is the refusal of input that is not UTF-8, at its first bad byte,
// in the Python library's words.
func notUTF8(data []byte) *StrictError {
	at := invalidUTF8At(data)
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	return &StrictError{
		Line:   bytes.Count(data[:at], []byte("\n")) + 1,
		Column: utf8.RuneCount(data[start:at]) + 1,
		Reason: fmt.Sprintf("input is not valid UTF-8 (byte 0x%02x at offset %d)", data[at], at),
	}
}

// withoutIndexes is path without the indexes of list items:
// "solution_artifacts[2].path" is "solution_artifacts.path".
func withoutIndexes(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mantissa is the digits of a number's text before its exponent.
func mantissa(text string) string {
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		return text[:i]
	}
	return text
}
