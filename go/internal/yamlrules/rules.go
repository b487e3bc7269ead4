// Package yamlrules owns the rules that exist because the two libraries
// read YAML with different parsers: the Go library with yaml.v3, the
// Python library with libyaml. On some texts the two disagree: libyaml
// refuses what yaml.v3 reads (a tag that runs into '[', a plain scalar
// ending in ':' inside [] or {}, the escape \', a tab among comments),
// yaml.v3 refuses what libyaml reads (a
// '?' inside a plain scalar in [] or {}, a %YAML directive other than
// 1.1), yaml.v3 drops what libyaml keeps (the tag "!" alone, a second
// document), yaml.v3 reads otherwise what libyaml reads (a byte order mark
// that starts a line, or one where its read buffer is refilled), or both
// refuse, at different places. The rules here make the
// Go library refuse exactly what the Python library refuses, reading the
// text itself where yaml.v3's tree keeps no trace of what it read. Where
// both stop at a syntax problem, which problem, line and column each
// reports is not part of the agreement: a syntax problem is placed on
// libyaml's line only where the shared problem table needs it, and given
// no column.
//
// For is its one entry point: the Rules of one text, whose methods the
// public package calls at each stage of its reading, before the parse
// (the byte order marks that start a line), for the parse itself (the
// first document within the budgets, read with no byte order mark past the
// start), during the schema walk (a tag yaml.v3 dropped, a '?' it
// could not read), after it (the misreads, what follows the first document
// and the byte order marks outside any value) and on a
// syntax error (the line libyaml gives). It
// knows nothing of the public package: a refusal is a plain Problem, in
// the catalogue's words, which the public package turns into its error.
package yamlrules

import (
	"bytes"

	"go.yaml.in/yaml/v3"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/source"
)

// A Problem is the refusal of a text: its message in the catalogue's words,
// its code, given where the refusal is found, and the 1-based line and
// column it is at (0 when at no one place).
type Problem struct {
	Line, Column int
	Message      string
	Code         taskspecv1.ProblemCode
}

// The codes of the problems this package reports.
const (
	codeUnsupported    = taskspecv1.ProblemCode_PROBLEM_CODE_UNSUPPORTED
	codeSyntax         = taskspecv1.ProblemCode_PROBLEM_CODE_SYNTAX
	codeLimit          = taskspecv1.ProblemCode_PROBLEM_CODE_LIMIT
	codeTabIndent      = taskspecv1.ProblemCode_PROBLEM_CODE_TAB_INDENT
	codeBadEscape      = taskspecv1.ProblemCode_PROBLEM_CODE_BAD_ESCAPE
	codeDirective      = taskspecv1.ProblemCode_PROBLEM_CODE_DIRECTIVE
	codeAnchorAliasTag = taskspecv1.ProblemCode_PROBLEM_CODE_ANCHOR_ALIAS_TAG
)

// Rules applies the rules to one text.
type Rules struct {
	text *source.Text
	// orig is the text as written when text is a copy yaml.v3 can read
	// (see Stricter), with the same lines and columns.
	orig  []byte
	first *firstDocument // the reading of the first document (see Parse)
	// doc is the document parsed, and starts the positions its nodes
	// start at, gathered on first use.
	doc    *yaml.Node
	starts map[position]bool
	bangs  int // 0 unknown, 1 no '!' that could be a tag alone in the text, 2 some
}

type position struct{ line, column int }

// For returns the rules of the text t. orig is nil, or the text as
// written when t is the copy of it that Stricter returned.
func For(t *source.Text, orig []byte) *Rules {
	return &Rules{text: t, orig: orig}
}

// visit calls fn on every node of the tree once; aliases are not followed,
// since the node they name is visited where it is written.
func visit(n *yaml.Node, fn func(*yaml.Node)) {
	fn(n)
	for _, c := range n.Content {
		visit(c, fn)
	}
}

// isMarker reports whether line starts with the document marker m, followed
// by white space or nothing.
func isMarker(line []byte, m string) bool {
	return bytes.HasPrefix(line, []byte(m)) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// isCollection reports whether n is a mapping or a sequence in flow style
// ("{a: b}"), when flow, or in block style, when not.
func isCollection(n *yaml.Node, flow bool) bool {
	return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && (n.Style&yaml.FlowStyle != 0) == flow
}

// EditorLine is the line editors show for line of the text as yaml.v3
// counts lines (see source.Text.EditorPosition), for a line named inside
// a problem's message.
func (r *Rules) EditorLine(line int) int {
	if r == nil || r.text == nil {
		return line
	}
	l, _ := r.text.EditorPosition(line, 0)
	return l
}
