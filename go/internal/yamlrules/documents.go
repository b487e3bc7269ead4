package yamlrules

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/budget"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// This file reads the first document of a text within the budgets
// (internal/budget), and finds whether another document follows it and
// where, at a bounded cost.

// Parse parses the first document of the text with yaml.v3, refusing,
// with the message and position the Python library gives, a document over
// the node or depth budget of limits (over), or else returning yaml.v3's
// error as it is (io.EOF for a text with no document in it).
func (r *Rules) Parse(limits budget.Limits) (doc *yaml.Node, over *Problem, err error) {
	data := r.text.Bytes()
	// Whether the text could be over a budget at all is the same question
	// before and after the parse: asked once.
	might := limits.MightExceed(data)
	if might {
		if o := budget.Check(data, nil, limits); o != nil {
			return nil, r.flowColonBefore(o.Tree, overError(o)), nil
		}
	}
	read, mark := withoutInnerMarks(data)
	r.first = newFirstDocument(read)
	var d yaml.Node
	if err := r.first.dec.Decode(&d); err != nil {
		return nil, nil, err
	}
	if mark != "" {
		restoreMarks(&d, mark)
	}
	// Checked exactly where the Python library checks: a document that
	// cannot hold more than the budget's nodes or nest deeply at any cost
	// is left to the decoder, which refuses what a TaskSpec cannot hold.
	if might {
		if o := budget.Check(data, &d, limits); o != nil {
			return nil, r.flowColonBefore(&d, overError(o)), nil
		}
	}
	r.doc = &d
	return &d, nil, nil
}

// withoutInnerMarks returns data for yaml.v3 to read: data itself, or,
// when data holds a byte order mark past the start, a copy with each such
// mark written as mark, a character of the same size that data does not
// hold. yaml.v3 tests for a mark at the start of its read buffer rather
// than at the character it reads (is_bom), so a mark there can make it
// skip the first character of a later line, depending on where its buffer
// was refilled; libyaml does not. The copy is read as libyaml reads data
// (a mark past the start of its line is text to both; one that starts a
// line is refused before), with the same lines and columns.
func withoutInnerMarks(data []byte) (read []byte, mark string) {
	start := 0
	if bytes.HasPrefix(data, []byte(byteOrderMark)) {
		start = len(byteOrderMark)
	}
	if !bytes.Contains(data[start:], []byte(byteOrderMark)) {
		return data, ""
	}
	for r := rune(0xE000); r <= 0xF8FF; r++ { // private use: three bytes, printable to yaml.v3
		if m := string(r); !bytes.Contains(data, []byte(m)) {
			read = append(data[:start:start], bytes.ReplaceAll(data[start:], []byte(byteOrderMark), []byte(m))...)
			return read, m
		}
	}
	return data, "" // a text holding every such character is read as it is
}

// restoreMarks writes each mark in the values and comments of the tree n
// back as the byte order mark it stands for (see withoutInnerMarks).
func restoreMarks(n *yaml.Node, mark string) {
	visit(n, func(n *yaml.Node) {
		for _, s := range []*string{&n.Value, &n.HeadComment, &n.LineComment, &n.FootComment} {
			if strings.Contains(*s, mark) {
				*s = strings.ReplaceAll(*s, mark, byteOrderMark)
			}
		}
	})
}

// overError is the refusal of a document over a budget.
func overError(o *budget.Over) *Problem {
	return &Problem{Line: o.Line, Column: o.Column, Message: o.Reason, Code: codeLimit}
}

// After returns the refusal of what the text holds besides the first
// document, doc, that Parse read: a misread in the text (see
// firstMisread), else a second document or text after the first (see
// secondDocument). (Where the text holds both, the Python library stops
// too, at either, or at a syntax problem; which it meets first is not
// copied.) err is yaml.v3's syntax error in the text after the first
// document, returned as it is.
func (r *Rules) After(doc *yaml.Node) (p *Problem, err error) {
	if p := r.firstMisread(doc); p != nil {
		return p, nil
	}
	line, more, err := r.first.more(doc)
	if err != nil || !more {
		return nil, err
	}
	return r.secondDocument(line), nil
}

// firstDocument reads the first document of data, then tells whether
// another follows, at a bounded cost: yaml.v3 builds a whole document
// before it returns it, so a second document of millions of nodes would
// cost what the budgets exist to prevent. The second read is given at most
// moreWindow bytes past what the first read consumed; when it needs more,
// the rest of the text is looked at instead.
type firstDocument struct {
	data   []byte
	reader *cappedReader
	dec    *yaml.Decoder
}

const moreWindow = 64 << 10

// cappedReader reads data, failing with errCapped past limit once a limit
// is set.
type cappedReader struct {
	data  []byte
	at    int
	limit int // -1 for none
}

var errCapped = errors.New("taskspec: read past the window")

func (r *cappedReader) Read(p []byte) (int, error) {
	if r.at >= len(r.data) {
		return 0, io.EOF
	}
	end := len(r.data)
	if r.limit >= 0 && r.limit < end {
		end = r.limit
		if r.at >= end {
			return 0, errCapped
		}
	}
	n := copy(p, r.data[r.at:end])
	r.at += n
	return n, nil
}

func newFirstDocument(data []byte) *firstDocument {
	r := &cappedReader{data: data, limit: -1}
	return &firstDocument{data: data, reader: r, dec: yaml.NewDecoder(r)}
}

// more reports whether anything follows the first document, first, and
// the line it starts on: where yaml.v3's parser, as libyaml's, found the
// next document; or else, when yaml.v3 cannot read the text after first,
// or that text goes on past the window, the line of the next document's
// marker or directive, or of text after a "..." end marker (see
// nextDocumentLine). When yaml.v3 cannot read the text after the first
// document and none is found, that is yaml.v3's syntax error, returned as
// it is: libyaml, which the Python library reads with, refuses such text
// too, perhaps otherwise or at another place (both stop; see
// docs/problems.md).
func (f *firstDocument) more(first *yaml.Node) (int, bool, error) {
	f.reader.limit = f.reader.at + moreWindow
	var next yaml.Node
	err := f.dec.Decode(&next)
	switch {
	case errors.Is(err, io.EOF):
		return 0, false, nil
	case err == nil:
		return max(next.Line, 1), true, nil
	}
	src := source.New(f.data)
	if !strings.Contains(err.Error(), errCapped.Error()) {
		if line, found := nextDocumentLine(src, first); found {
			return line, true, nil
		}
		return 0, false, err
	}
	// Whether anything follows is pastWindow's to say: a line that starts
	// with '%' may be inside the first document's last scalar.
	line, found := f.pastWindow(src)
	if l, ok := nextDocumentLine(src, first); found && ok {
		line = l
	}
	return line, found, nil
}

// nextDocumentLine returns the first line after the last line a node of
// first starts on that is a "---" marker or a directive, or, after a "..."
// marker, the first that is not blank or a comment, and whether there is
// one. (Where an empty node stands past such a line, or a quoted scalar
// holds one, the line found may not be libyaml's: both stop.)
func nextDocumentLine(t *source.Text, first *yaml.Node) (int, bool) {
	last := 0
	visit(first, func(n *yaml.Node) { last = max(last, n.Line) })
	ended := false
	for l := last + 1; l <= len(t.LineStarts()); l++ {
		text := yamlscan.TrimLineBreak(t.Line(l))
		switch {
		case isMarker(text, "---") || bytes.HasPrefix(text, []byte("%")):
			return l, true
		case isMarker(text, "..."):
			if !isCommentOrBlank(text[3:]) {
				return l, true
			}
			ended = true
		case ended && !isCommentOrBlank(text):
			return l, true
		}
	}
	return 0, false
}

// pastWindow reports whether anything but comments and markers follows the
// first document, and a line of it, when the text after the first document
// goes on past the window without a document or its end: a long tail of
// comments, or more. The text is read again, cut at the first line start
// past the window: when yaml.v3 finds nothing after the first document in
// the cut, the lines after the cut, where no token is open, are looked at
// one by one.
func (f *firstDocument) pastWindow(src *source.Text) (int, bool) {
	starts := src.LineStarts()
	line := min(sort.SearchInts(starts, f.reader.limit), len(starts)-1) // the cut is at starts[line]
	dec := yaml.NewDecoder(bytes.NewReader(f.data[:starts[line]]))
	var doc, next yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return line, true
	}
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return max(next.Line, line), true
	}
	for l := line + 1; l <= len(starts); l++ {
		text := yamlscan.TrimLineBreak(src.Line(l))
		if isMarker(text, "...") {
			text = text[3:]
		}
		if !isCommentOrBlank(text) {
			return l, true
		}
	}
	return 0, false
}

// closingBracket returns the offset just past the flow collection whose
// properties or opening bracket are at offset at, or -1. It reads the
// collection token by token: quoted scalars and comments are skipped, and
// a plain scalar up to where yaml.v3 ends it (flowPlainEnd), so that a
// quote or a '#' inside one ("[it's]", "{a: b:'c}") opens nothing.
func closingBracket(data []byte, at int) int {
	for at < len(data) && data[at] != '[' && data[at] != '{' {
		at++ // past the properties ("&a !t")
	}
	depth := 0
	for i := at; i < len(data); {
		c := data[i]
		switch {
		case yamlscan.LineBreakAt(data, i) > 0:
			i += yamlscan.LineBreakAt(data, i)
		case yamlscan.IsBlank(c) || c == ',' || c == '?' || c == ':':
			i++
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			if depth--; depth == 0 {
				return i + 1
			}
			i++
		case c == '"' || c == '\'':
			i = yamlscan.SkipQuoted(data, i)
		case c == '#':
			// A comment, which ends at NEL, LS and PS too.
			for i < len(data) && yamlscan.LineBreakAt(data, i) == 0 {
				i++
			}
		case c == '&' || c == '*' || c == '!':
			// A property or an alias, up to a blank, a line break or an
			// indicator of the collection.
			for i++; i < len(data) && !blankzAt(data, i) && !yamlscan.IsFlowIndicator(data[i]); i++ {
			}
		default:
			i = max(flowPlainEnd(data, i), i+1)
		}
	}
	return -1
}

// MoreThanOneDocument is the refusal of a second document that a "---"
// marker starts: both parsers read it, and yaml.v3 drops it silently.
const MoreThanOneDocument = "more than one YAML document: the Go package reads the first and ignores the rest silently"

// directiveWithoutStart and textAfterDocument are the catalogue's words
// for the syntax errors libyaml's parser gives after the first document.
const (
	directiveWithoutStart = "invalid YAML: a directive must be followed by a document start (---)"
	textAfterDocument     = "invalid YAML: text after the end of the document"
)

// secondDocument is the refusal of the text after the first document,
// from line on. A second document is one that "---" starts, or directives
// then "---" (see nextDocumentLine), after something before it (TS004, at
// the marker or the first directive). Anything else there is text after
// the root value, after a "..." end marker or not (TS005): a syntax error,
// whose column is not part of the agreement, and which libyaml calls a
// directive that no "---" follows (TS018) after a directive line.
func (r *Rules) secondDocument(line int) *Problem {
	text := yamlscan.TrimLineBreak(r.text.Line(line))
	if (isMarker(text, "---") || len(text) > 0 && text[0] == '%') && contentBefore(r.text, line) {
		return &Problem{Line: line, Column: 1, Message: MoreThanOneDocument, Code: codeUnsupported}
	}
	return &Problem{Line: line, Message: textAfterDocument, Code: codeSyntax}
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
