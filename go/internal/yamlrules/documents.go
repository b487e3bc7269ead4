package yamlrules

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

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
	if o := budget.Check(data, nil, limits); o != nil {
		return nil, r.flowColonBefore(o.Tree, overError(o)), nil
	}
	r.first = newFirstDocument(data)
	var d yaml.Node
	if err := r.first.dec.Decode(&d); err != nil {
		return nil, nil, err
	}
	// Checked exactly where the Python library checks: a document that
	// cannot hold more than the budget's nodes or nest deeply at any cost
	// is left to the decoder, which refuses what a TaskSpec cannot hold.
	if o := budget.Check(data, &d, limits); o != nil {
		return nil, r.flowColonBefore(&d, overError(o)), nil
	}
	r.doc = &d
	return &d, nil, nil
}

// overError is the refusal of a document over a budget.
func overError(o *budget.Over) *Problem {
	return &Problem{Line: o.Line, Column: o.Column, Message: o.Reason, Code: codeLimit}
}

// After returns the refusal of what the text holds besides the first
// document, doc, that Parse read: the first misread in the text (see
// misread), else a second document or text after the first (see
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

// more reports whether a second document follows the first document,
// first, and the line it starts on. When the text after the first document
// starts no document with a marker and yaml.v3 cannot read it, that is
// yaml.v3's syntax error, returned as it is: libyaml, which the Python
// library reads with, refuses such text too, in its own words and perhaps
// at another place (both stop; see docs/problems.md).
func (f *firstDocument) more(first *yaml.Node) (int, bool, error) {
	f.reader.limit = f.reader.at + moreWindow
	var next yaml.Node
	err := f.dec.Decode(&next)
	if errors.Is(err, io.EOF) {
		return 0, false, nil
	}
	if err == nil && next.Line > 0 {
		return next.Line, true, nil // where yaml.v3's parser, as libyaml's, found it
	}
	line, marker, found := secondDocumentLine(f.data, first)
	capped := err != nil && strings.Contains(err.Error(), errCapped.Error())
	switch {
	case !found && capped:
		// Nothing but comments and markers follows on later lines: a long
		// tail of comments past the window, which starts no document.
		return 0, false, nil
	case err == nil || (found && capped) || marker:
		return line, true, nil
	}
	return 0, false, err
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

// secondDocumentLine returns the line on which the document after first
// starts, as a YAML parser reports it, whether a marker starts it, and
// whether anything does: the first line after first's last node that is a
// "---" marker, or, after a "..." marker, the first line that is not blank
// or a comment; failing both, the first line after it that starts with
// text in the first column, or has any; failing that, first's last line,
// where text may follow it ("{}t"), with found false.
func secondDocumentLine(data []byte, first *yaml.Node) (int, bool, bool) {
	src := source.New(data) // lines, offsets and columns, counted once
	last, from, after := 0, 0, 0
	var lastNode *yaml.Node
	flows := false // whether the document holds a flow collection
	visit(first, func(n *yaml.Node) {
		flows = flows || isCollection(n, true)
		empty := n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0
		if empty && n != rootOf(first) {
			// An empty value with no ':' ("? a" at the end) stands where the
			// next token is, which may be past directives of the next
			// document; one with an anchor ("? &a") stands at its anchor,
			// and one right after its indicator ("? \t#c", then "---"), there.
			if at := src.Offset(n.Line, n.Column); at < 0 || !startsWithProperty(data[at:]) && !afterIndicator(data, at) {
				return
			}
		}
		if n.Line >= last {
			last, from, lastNode = n.Line, n.Line+1, n
			if n.Kind == yaml.ScalarNode && n.Value != "" && (n.Anchor != "" || n.Style&yaml.TaggedStyle != 0) {
				// yaml.v3 places a node at its properties; its value may
				// start on a later line ("!t", then "x").
				if at := src.Offset(n.Line, n.Column); at >= 0 {
					if line, _ := src.LineColumn(pastProperties(data, at)); line > last && pastProperties(data, at) < len(data) {
						last, from = line, line+1
					}
				}
			}
			if end := scalarEndLine(src, n); end > last {
				// A quoted scalar may go on over later lines, whose text
				// is its own, not the next document's ("\"a\nb\""), and a
				// block scalar's header may follow its properties there.
				last, from = end, end+1
			}
			if empty && n.Column == 1 && !startsWithProperty(src.Line(n.Line)) {
				// An empty document's null stands at the next marker, unless
				// it has an anchor or a tag ("&a"), where it stands.
				from = n.Line
			}
			if empty || n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == yaml.TaggedStyle {
				// Its properties may go on over later lines ("&a", a comment,
				// then "!"): the node ends after the last of them, and text
				// after it on its line (", x") is where libyaml's parser
				// looks for the next document.
				if at := src.Offset(n.Line, n.Column); at >= 0 {
					if end := propertiesEnd(data, at); end > at {
						line, _ := src.LineColumn(end - 1)
						if line > n.Line {
							last, from = line, line+1
						}
						start := src.LineStarts()[line-1]
						rest := bytes.TrimLeft(yamlscan.TrimLineBreak(src.Line(line))[end-start:], " \t")
						if len(rest) > 0 && rest[0] != '#' && n == rootOf(first) {
							after = line
						}
					}
				}
			}
		}
	})
	if after > 0 {
		return after, false, true
	}
	// Only a plain or block scalar goes on over the indented lines after
	// its first; after any other node, or a flow collection's closing
	// bracket, an indented token starts the next document ("&a\n &b").
	continues := lastNode != nil && lastNode.Kind == yaml.ScalarNode && lastNode.Value != "" &&
		lastNode.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0
	plain := continues && lastNode.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0
	// Brackets at a line start close a flow collection of the first
	// document only when it is a block collection holding one; after any
	// other root they start the next document ("&a\n ]").
	root := rootOf(first)
	brackets := isCollection(root, false) && flows
	if isCollection(root, true) {
		// A flow root ends at its closing bracket, which may be on a later
		// line than its last node ("{a: b\n c}").
		continues, brackets = false, true
		if at := src.Offset(root.Line, root.Column); at >= 0 {
			if end := closingBracket(data, at); end > 0 {
				brackets = false
				if line, _ := src.LineColumn(end - 1); line >= last {
					last, from = line, line+1
				}
			}
		}
	}
	// A plain scalar that is the root, in no block, goes on over lines
	// that are not indented ("a", then "b").
	rootPlain := plain && lastNode == root
	// Lines break where YAML breaks them, at NEL, LS and PS too.
	starts := src.LineStarts()
	if from < 1 {
		from = 1
	}
	if from > len(starts) {
		return last, false, false // the text ends on the document's last line
	}
	ended, content, indented := false, 0, 0
	for line := from; line <= len(starts); line++ {
		text := data[starts[line-1]:]
		if line < len(starts) {
			text = data[starts[line-1]:starts[line]]
		}
		text = yamlscan.TrimLineBreak(text)
		trimmed := bytes.TrimLeft(text, " \t")
		switch {
		case isMarker(text, "---") && content > 0:
			return content, true, true // a directive ("%YAML 1.2") starts it
		case isMarker(text, "---"):
			return line, true, true
		case isMarker(text, "...") && content > 0:
			return content, true, true // text before it starts the next document
		case isMarker(text, "...") && !isCommentOrBlank(text[3:]):
			return line, true, true // text after it on its line ("... *a") does
		case isMarker(text, "..."):
			ended = true
		case isCommentOrBlank(text):
			// Nothing libyaml's scanner stops at.
		case ended:
			return line, true, true
		default:
			// The brackets that close the first document's flow collections
			// belong to it: text after them starts the next ("}\n0x", "}x").
			rest := trimmed
			if brackets {
				rest = bytes.TrimLeft(bytes.TrimLeft(trimmed, "]},"), " \t")
			}
			switch {
			case len(rest) == 0:
			case rest[0] == '#':
				// A comment ends a plain scalar: libyaml's plain scanner
				// stops there, and an indented token after it is the next
				// document's ("~", "  #c", then "  x").
				continues = continues && !plain
			case content == 0 && (len(rest) < len(trimmed) || !continues || text[0] != ' ' && text[0] != '\t' && !rootPlain ||
				plain && rest[0] == ':' && blankzAt(rest, 1)):
				// (A ':' and a blank end a plain scalar too, and the ':'
				// starts the next document: "~", then "    : x".)
				content = line // text after the document with no marker, such as "0x" after "{}"
			case indented == 0:
				indented = line
			}
		}
	}
	switch {
	case content > 0:
		return content, false, true
	case indented > 0:
		return indented, false, true
	}
	return last, false, false
}

// afterIndicator reports whether offset at is just past a block "?", ":"
// or "-" indicator, where libyaml puts an empty node that follows one.
func afterIndicator(data []byte, at int) bool {
	return at > 0 && strings.IndexByte("?:-", data[at-1]) >= 0
}

// scalarEndLine returns the line on which the token of the scalar n ends,
// when that can be a later line than its properties' or its start: the
// closing quote of a quoted scalar ("\"a\nb\""), the header of a block
// scalar ("!t", then "|" on the next line). 0 for any other node.
func scalarEndLine(t *source.Text, n *yaml.Node) int {
	const quoted, block = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle, yaml.LiteralStyle | yaml.FoldedStyle
	if n.Kind != yaml.ScalarNode || n.Style&(quoted|block) == 0 {
		return 0
	}
	at := t.Offset(n.Line, n.Column)
	if at < 0 {
		return 0
	}
	q := pastProperties(t.Bytes(), at)
	switch {
	case q >= len(t.Bytes()):
		return 0
	case n.Style&block != 0 && (t.Bytes()[q] == '|' || t.Bytes()[q] == '>'):
		line, _ := t.LineColumn(q)
		return line
	case n.Style&quoted != 0 && (t.Bytes()[q] == '"' || t.Bytes()[q] == '\''):
		line, _ := t.LineColumn(yamlscan.SkipQuoted(t.Bytes(), q) - 1)
		return line
	}
	return 0
}

// moreThanOneDocument is the refusal of a second document that a "---"
// marker starts: both parsers read it, and yaml.v3 drops it silently.
const moreThanOneDocument = "more than one YAML document: the Go package reads the first and ignores the rest silently"

// directiveWithoutStart and textAfterDocument are the catalogue's words
// for the syntax errors libyaml's parser gives after the first document.
const (
	directiveWithoutStart = "invalid YAML: a directive must be followed by a document start (---)"
	textAfterDocument     = "invalid YAML: text after the end of the document"
)

// secondDocument is the refusal of the text after the first document,
// from line on, as libyaml's parser meets it. A second document is one
// that "---" starts, or directives then "---" (see secondDocumentLine), after
// something before it (TS004, at the marker or the first directive).
// Anything else there is a syntax error: a directive that no "---"
// follows (TS018), or text after the root value, after a "..." end marker
// or not (TS005), at its first token.
func (r *Rules) secondDocument(line int) *Problem {
	text := yamlscan.TrimLineBreak(r.text.Line(line))
	if (isMarker(text, "---") || len(text) > 0 && text[0] == '%') && contentBefore(r.text, line) {
		return &Problem{Line: line, Column: 1, Message: moreThanOneDocument, Code: codeUnsupported}
	}
	rest := bytes.TrimLeft(text, " \t")
	column := 1 + utf8.RuneCount(text[:len(text)-len(rest)])
	if r.directiveBefore(line) {
		return &Problem{Line: line, Column: column, Message: directiveWithoutStart, Code: codeDirective}
	}
	return &Problem{Line: line, Column: column, Message: textAfterDocument, Code: codeSyntax}
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
func (r *Rules) directiveBefore(line int) bool {
	return directiveLine(r.text, line) > 0
}

// directiveLine returns the last directive line ("%...") at or before
// line, walking back over the lines, or 0 when a "..." end marker or the
// start of the text comes first.
func directiveLine(t *source.Text, line int) int {
	for l := min(line, len(t.LineStarts())); l >= 1; l-- {
		text := t.Line(l)
		if bytes.HasPrefix(text, []byte("...")) {
			return 0
		}
		if bytes.HasPrefix(text, []byte("%")) {
			return l
		}
	}
	return 0
}
