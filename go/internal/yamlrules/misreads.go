package yamlrules

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	forms "github.com/taskspec/taskspec/go/internal/catalogue"
	"github.com/taskspec/taskspec/go/internal/source"
	reader "github.com/taskspec/taskspec/go/internal/yaml"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// This file holds the refusals of text that libyaml refuses and yaml.v3
// reads, or reads otherwise: the byte order marks, a tab libyaml reads as
// indentation, the escape \', and the misreads found in the tree.

// Empty refuses, for a text yaml.v3 found no document in, a tab that starts a line
// (after any spaces) of it, nothing but blanks and comments: libyaml's
// scanner reads it as indentation and fails, where yaml.v3 reads the
// comments and finds no document.
func (r *Rules) Empty() *Problem {
	t := r.text
	if bytes.IndexByte(t.Bytes(), '\t') < 0 {
		return nil
	}
	for l := 1; l <= len(t.LineStarts()); l++ {
		text := yamlscan.TrimLineBreak(t.Line(l))
		rest := bytes.TrimLeft(text, " ")
		if len(rest) > 0 && rest[0] == '\t' {
			return &Problem{Line: l, Column: 1 + len(text) - len(rest), Message: tabIndentReason, Code: codeTabIndent}
		}
	}
	return nil
}

// InnerByteOrderMark refuses a byte order mark that starts a line, past
// the start of the text, as the Python library does before reading
// anything: libyaml skips such a mark as if it were not there, where
// yaml.v3 reads it as text. A mark past the start of its line is checked
// once the document is parsed (ByteOrderMarks).
func (r *Rules) InnerByteOrderMark() *Problem {
	lines := r.text.LineStarts() // the first starts after a leading mark
	for _, at := range r.innerMarks() {
		if line, found := slices.BinarySearch(lines, at); found {
			return &Problem{Line: line + 1, Column: 1, Message: lineStartBOMReason, Code: codeUnsupported}
		}
	}
	return nil
}

// innerMarks returns the offsets of the byte order marks of the text past
// a leading one.
func (r *Rules) innerMarks() []int {
	data := r.text.Bytes()
	start := 0
	if bytes.HasPrefix(data, []byte(byteOrderMark)) {
		start = len(byteOrderMark)
	}
	var marks []int
	for {
		i := bytes.Index(data[start:], []byte(byteOrderMark))
		if i < 0 {
			return marks
		}
		marks = append(marks, start+i)
		start += i + len(byteOrderMark)
	}
}

// ByteOrderMarks refuses a byte order mark past the start of its line
// that is not inside a scalar of the text's first document: in a comment,
// between tokens or in a second document. Inside a scalar, of any style,
// libyaml and yaml.v3 both read it as part of the value, and so it is
// read, with warning TS305. yaml.v3 tests for a mark at the start of its
// read buffer rather than at the character it reads (is_bom), so a mark
// can make it skip the first character of a later line. The scalars are
// the reader's (go/internal/yaml), with libyaml's marks, as the Python
// library takes them from libyaml's events; a text the reader refuses is
// left to the parse, which reports its syntax problem.
func (r *Rules) ByteOrderMarks() *Problem {
	marks := r.innerMarks()
	if len(marks) == 0 {
		return nil
	}
	data := r.text.Bytes()
	doc, err := reader.Parse(data, reader.Options{})
	if err != nil {
		return nil
	}
	var spans [][2]int // in document order, none inside another
	var visit func(n *reader.Node)
	visit = func(n *reader.Node) {
		switch n.Kind {
		case reader.ScalarNode:
			start := n.Start.Offset
			if n.Style == reader.LiteralStyle || n.Style == reader.FoldedStyle {
				start = nextLine(data, start) // the value starts on the line after the header
			}
			spans = append(spans, [2]int{start, n.End.Offset})
		case reader.DocumentNode, reader.SequenceNode, reader.MappingNode:
			for _, c := range n.Content {
				visit(c)
			}
		}
	}
	if doc.Root != nil {
		visit(doc.Root)
	}
	for _, at := range marks {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][0] > at }) - 1
		if i < 0 || at >= spans[i][1] {
			line, column := r.text.LineColumn(at)
			return &Problem{Line: line, Column: column, Message: outsideValueBOMReason, Code: codeUnsupported}
		}
	}
	return nil
}

// nextLine returns the offset of the line after the one offset at is on
// (len(data) on the last), lines ending at "\n", "\r\n" or "\r".
func nextLine(data []byte, at int) int {
	for ; at < len(data); at++ {
		if data[at] == '\n' {
			return at + 1
		}
		if data[at] == '\r' {
			if at+1 < len(data) && data[at+1] == '\n' {
				return at + 2
			}
			return at + 1
		}
	}
	return len(data)
}

// lineStartBOMReason is the refusal of a byte order mark that starts a
// line.
const lineStartBOMReason = "byte order mark at the start of a line: libyaml skips it, yaml.v3 reads it as text; remove it"

// outsideValueBOMReason is the refusal of a byte order mark past the start
// of its line, outside any scalar.
const outsideValueBOMReason = "byte order mark outside a value: yaml.v3 can skip a character after it; remove it, or write it as the escape \\uFEFF in a double-quoted string"

// A misread is a place where libyaml (and so the Python library) and
// yaml.v3 read the text differently and only libyaml refuses it, or both
// read it but differently: a tag libyaml ends at '[', ']' or ',', a plain
// scalar ending in ':' inside [] or {}, the escape \' in a double-quoted
// scalar, a tab libyaml reads as indentation among comments.
//
// firstMisread returns the refusal of a misread of the tree doc, parsed by
// yaml.v3 from the text (or from a cut of it), or nil: the first of the
// kinds above that the text holds. Each is a syntax problem or a refusal
// of text the parsers read differently, so where the text holds several,
// which one each library reports is not part of the agreement (both stop);
// the Python library stops at the first in the text.
func (r *Rules) firstMisread(doc *yaml.Node) *Problem {
	if p := tagEndingEarly(r.text, doc); p != nil {
		return p
	}
	if bytes.ContainsAny(r.text.Bytes(), "[{") {
		if p := r.flowColons(doc); p != nil {
			return p
		}
	}
	if p := apostropheEscape(r.text, doc); p != nil {
		return p
	}
	if bytes.IndexByte(r.text.Bytes(), '#') >= 0 && tabThenComment(r.text.Bytes()) {
		return r.tabs(doc)
	}
	return nil
}

// tabThenComment reports whether a tab in data has nothing after it on
// its line but blanks, then the line's end or a comment, as each tab that
// tabs refuses has. Most texts with tabs, such as code in a prompt, have
// none, and are not placed line by line for it. (A byte that starts a
// character counts as a line's end: the rare line breaks are characters.)
func tabThenComment(data []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\t')
		if j < 0 {
			return false
		}
		k := i + j + 1
		for k < len(data) && yamlscan.IsBlank(data[k]) {
			k++
		}
		if k == len(data) || data[k] == '#' || data[k] == '\n' || data[k] == '\r' || data[k] >= 0x80 {
			return true
		}
		i = k
	}
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
func (r *Rules) tabs(doc *yaml.Node) *Problem {
	data := r.text.Bytes()
	var spans [][2]int         // offsets where a line start is inside a node
	trailing := map[int]bool{} // lines a comment ends
	visit(doc, func(n *yaml.Node) {
		if n.LineComment != "" {
			trailing[n.Line] = true
		}
		at := r.text.Offset(n.Line, n.Column)
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
			line := r.text.Line(n.Line)
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
	starts := r.text.LineStarts()
	afterComment := false
	for l := 1; l <= len(starts); l++ {
		if inside(starts[l-1]) {
			afterComment = false
			continue
		}
		text := yamlscan.TrimLineBreak(r.text.Line(l))
		rest := bytes.TrimLeft(text, " \t")
		// (Past the first document, libyaml's parser stops at the next,
		// or at text after the first: both stop.)
		if isMarker(text, "---") || isMarker(text, "...") {
			// A comment after the marker is one the tab may follow.
			after := bytes.TrimLeft(text[3:], " \t")
			afterComment = len(after) > 0 && after[0] == '#'
			continue
		}
		if len(rest) > 0 && rest[0] != '#' {
			if tab := indicatorTab(text); tab >= 0 {
				return tabError(r.text, l, starts[l-1]+tab)
			}
			// (yaml.v3 keeps a comment right after "- " as a foot comment.)
			afterComment = trailing[l] || indicatorsThenComment(text)
			continue
		}
		if tab := bytes.IndexByte(text[:len(text)-len(rest)], '\t'); tab >= 0 && afterComment {
			return tabError(r.text, l, starts[l-1]+tab)
		}
		if len(rest) > 0 {
			afterComment = true
		}
	}
	return nil
}

// tabError refuses the tab at offset at, on line. (Where the next
// document starts before it, libyaml's parser stops there, short of it:
// both stop.)
func tabError(t *source.Text, line, at int) *Problem {
	_, column := t.LineColumn(at)
	return &Problem{Line: line, Column: column, Message: tabIndentReason, Code: codeTabIndent}
}

// tabIndentReason is the refusal of a tab that libyaml's scanner reads as
// indentation (the Python library's TAB, in bridge/_decode_load.py).
const tabIndentReason = "invalid YAML: a tab character cannot indent YAML"

// isCommentOrBlank reports whether line holds nothing but blanks and a
// comment.
func isCommentOrBlank(line []byte) bool {
	rest := bytes.TrimLeft(yamlscan.TrimLineBreak(line), " \t")
	return len(rest) == 0 || rest[0] == '#'
}

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

// flowColonBefore returns the plain scalar ending in ':' inside [] or {}
// of the tree doc (see flowColons) when it comes before the node past a
// bound, bound, in the text; otherwise it returns bound. Its refusal is no
// syntax problem, so it and a limit are compared exactly, and libyaml's
// scanner, reading ahead, can meet it before its parser builds the node
// past the bound: both libraries report whichever comes first in the text.
// (Which of a syntax problem and a limit comes first is not copied: both
// stop.)
func (r *Rules) flowColonBefore(doc *yaml.Node, bound *Problem) *Problem {
	if bytes.ContainsAny(r.text.Bytes(), "[{") {
		if p := r.flowColons(doc); p != nil && r.text.Offset(p.Line, p.Column) < r.text.Offset(bound.Line, bound.Column) {
			return p
		}
	}
	return bound
}

// apostropheEscape refuses the first double-quoted scalar of the tree doc
// that holds the escape \', which YAML does not have: libyaml refuses it,
// yaml.v3 reads an apostrophe.
func apostropheEscape(t *source.Text, doc *yaml.Node) *Problem {
	if !bytes.Contains(t.Bytes(), []byte(`\'`)) {
		return nil
	}
	var found *Problem
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
				found = &Problem{Line: line, Column: column, Message: badEscapeReason, Code: codeBadEscape}
				return
			}
			i++
		}
	})
	return found
}

// badEscapeReason is the catalogue's words for an escape YAML does not have.
var badEscapeReason = forms.MsgBadEscapeUnknown.Render(nil)

// byteOrderMark is U+FEFF in UTF-8. libyaml's scanner skips one at the
// start of a line as it looks for the next token; yaml.v3 reads one past the
// start of the text as text.
const byteOrderMark = "\xef\xbb\xbf"

// TwoByteOrderMarks refuses a text that starts with two byte order marks:
// yaml.v3 skips the first and reads the second as text, at the start of
// whatever comes first, a key it misnames or no key at all. The Python
// library refuses such a text before reading it, and before its encoding.
func (r *Rules) TwoByteOrderMarks() *Problem {
	if !bytes.HasPrefix(r.text.Bytes(), []byte(byteOrderMark+byteOrderMark)) {
		return nil
	}
	return &Problem{Line: 1, Column: 1, Message: "two byte order marks at the start: yaml.v3 misreads the document; remove one", Code: codeUnsupported}
}
