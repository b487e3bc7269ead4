package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/taskspec/taskspec/go/internal/budget"
	"github.com/taskspec/taskspec/go/internal/source"
	reader "github.com/taskspec/taskspec/go/internal/yaml"
	"github.com/taskspec/taskspec/go/internal/yamlrules"
)

// readerSyntax is the syntax problem of data as the reader (package yaml,
// libyaml's state machine) meets it, in the catalogue's words, at
// libyaml's mark: the problem the Python library gives, with its code,
// line and column; or the Python library's refusal where libyaml stops at
// what yaml.v3 reads otherwise (a plain scalar ending in ':' inside [] or
// {}, a second document). ok is false when the reader reads data as one
// document, or nests it deeper than yaml.v3 reads.
func readerSyntax(data []byte) (v Violation, ok bool) {
	// Only yaml.v3's depth bound: the text is refused for what stops
	// yaml.v3, and the problem is the one the reader meets, past the
	// library's budgets too, as the Python library meets it (its bounds
	// and libyaml's scanner, which reads ahead, may meet a syntax problem
	// past a budget first).
	doc, err := reader.Parse(data, reader.Options{MaxDepth: yamlv3MaxDepth, YAMLv3: true, NoTree: true})
	if err == nil && doc.Next != nil {
		// "second-document-lookahead": yaml.v3 reads into the second
		// document before it returns the first; libyaml's loader stops at
		// its start ("expected a single document in the stream").
		return Violation{Line: doc.Next.Line + 1, Column: doc.Next.Column + 1, Code: CodeUnsupported,
			Message: yamlrules.MoreThanOneDocument, Severity: SeverityError}, true
	}
	var e *reader.Error
	if !errors.As(err, &e) || e.Kind == reader.BudgetError {
		return Violation{}, false
	}
	if e.Kind == reader.ComposerError && readsEventsFirst(data) {
		// The Python library reads the first document's events before it
		// composes them: a syntax problem past an alias to no anchor
		// comes first.
		_, eerr := reader.Parse(data, reader.Options{MaxDepth: yamlv3MaxDepth, YAMLv3: true, NoTree: true, Events: true})
		var ee *reader.Error
		if errors.As(eerr, &ee) && ee.Kind != reader.BudgetError {
			e = ee
		}
	}
	if e.Kind == reader.ReaderError {
		// The text is UTF-8 by now: a character no YAML reader takes, at
		// the character.
		if e.Problem != "control characters are not allowed" {
			return Violation{}, false
		}
		return Violation{Line: e.ProblemMark.Line + 1, Column: e.ProblemMark.Column + 1, Code: CodeControlCharacter,
			Message:  strings.ReplaceAll(catalogue[CodeControlCharacter].Messages[0], "{n}", fmt.Sprintf("#x%04X", e.Value)),
			Severity: SeverityError}, true
	}
	if e.Context == "while scanning a plain scalar" && e.Problem == "found unexpected ':'" {
		// "flow-colon": yaml_parser_scan_plain_scalar refuses a ':' that a
		// flow indicator follows; yaml.v3's reads it as text.
		start, end := e.ContextMark, e.ProblemMark
		return Violation{Line: start.Line + 1, Column: start.Column + 1, Code: CodeUnsupported,
			Message:  yamlrules.FlowColonReason(folded(data[start.Offset : end.Offset+1])),
			Severity: SeverityError}, true
	}
	if e.Difference == "tag-uri-flow-chars" {
		// As the Python library refuses it, at the node, naming the tag
		// as libyaml ends it.
		tag := data[e.ProblemMark.Offset:]
		tag = tag[:bytes.IndexByte(tag, ',')]
		return Violation{Line: e.ContextMark.Line + 1, Column: e.ContextMark.Column + 1, Code: CodeUnsupported,
			Message: yamlrules.TagThenComma(string(tag)), Severity: SeverityError}, true
	}
	mark := e.ProblemMark
	v = Violation{Line: mark.Line + 1, Column: mark.Column + 1, Severity: SeverityError}
	switch {
	case e.Problem == "did not find expected <document start>" && !directiveBefore(data, mark):
		// Text right after the root node, with no marker to start a second
		// document: libyaml's parser refuses it, where yaml.v3 stops at the
		// root node.
		v.Code, v.Message = CodeSyntax, catalogue[CodeSyntax].Messages[1]
	case tabProblem(e, data, &v):
	default:
		v.Code, v.Message = syntaxRow(e.Context, e.Problem)
	}
	return v, true
}

// tabProblem sets v to the tab e is about, when it is one: libyaml stops at
// a tab that indents either at the tab itself ("found character that
// cannot start any token") or at the start of its line ("found a tab
// character that violates indentation"), where the first tab of that line
// is the one named.
func tabProblem(e *reader.Error, data []byte, v *Violation) bool {
	at := e.ProblemMark.Offset
	switch {
	case at < len(data) && data[at] == '\t':
	case strings.Contains(e.Problem, "tab character"):
		start := bytes.LastIndexByte(data[:min(at, len(data))], '\n') + 1
		line := data[start:]
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		if tab := bytes.IndexByte(line, '\t'); tab >= 0 {
			v.Column = utf8.RuneCount(line[:tab]) + 1
		}
	default:
		return false
	}
	v.Code, v.Message = CodeTabIndent, catalogue[CodeTabIndent].Messages[0]
	return true
}

// directiveBefore reports whether a directive line ("%...") opens the
// document that ends at mark: libyaml's "did not find expected <document
// start>" is said both of a directive no "---" follows and of text after
// a document's end marker ("..."), and only the first is a directive
// problem.
func directiveBefore(data []byte, mark reader.Mark) bool {
	before := data[:min(mark.Offset, len(data))]
	starts := source.New(before).LineStarts()
	for i := len(starts) - 1; i >= 0; i-- {
		switch line := before[starts[i]:]; {
		case bytes.HasPrefix(line, []byte("...")):
			return false
		case bytes.HasPrefix(line, []byte("%")):
			return true
		}
	}
	return false
}

// syntaxRows is the table of docs/problems.md from libyaml's problem to
// the catalogue's code and message (by its index among the code's
// messages), the Python library's table in the same order: the first row
// that matches wins. An empty context matches any context, an empty
// problem any problem; a problem prefix also matches a context (libyaml
// says some problems as its context).
var syntaxRows = []struct {
	context, problem string
	code             Code
	message          int
}{
	{"", "found a tab character", CodeTabIndent, 0},
	{"", "found character that cannot start any token", CodeCannotStartValue, 0},
	{"while scanning a quoted scalar", "found unexpected end of stream", CodeUnclosedQuote, 0},
	{"while scanning a quoted scalar", "found unexpected document indicator", CodeUnclosedQuote, 1},
	{"", "did not find expected ',' or ']'", CodeUnclosedFlow, 0},
	{"", "did not find expected ',' or '}'", CodeUnclosedFlow, 1},
	{"", "mapping values are not allowed in this context", CodeMappingValue, 0},
	{"", "did not find expected key", CodeIndentation, 0},
	{"", "did not find expected '-' indicator", CodeIndentation, 1},
	{"", "did not find expected node content", CodeIndentation, 2},
	{"", "could not find expected ':'", CodeIndentation, 3},
	{"", "block sequence entries are not allowed in this context", CodeIndentation, 4},
	{"", "found unknown escape character", CodeBadEscape, 0},
	{"", "did not find expected hexdecimal number", CodeBadEscape, 0},
	{"", "found invalid Unicode character escape code", CodeBadEscape, 1},
	{"while scanning a block scalar", "did not find expected comment or line break", CodeBlockScalarHeader, 0},
	{"", "found an indentation indicator equal to 0", CodeBlockScalarHeader, 1},
	{"while scanning a directive", "", CodeDirective, 0},
	{"while scanning a %YAML directive", "", CodeDirective, 0},
	{"while scanning a %TAG directive", "", CodeDirective, 0},
	{"while parsing a %YAML directive", "", CodeDirective, 0},
	{"while parsing a %TAG directive", "", CodeDirective, 0},
	{"", "found duplicate %YAML directive", CodeDirective, 0},
	{"", "found duplicate %TAG directive", CodeDirective, 0},
	{"", "found incompatible YAML document", CodeDirective, 0},
	{"", "did not find expected <document start>", CodeDirective, 1},
	{"", "found undefined alias", CodeAnchorAliasTag, 0},
	{"while scanning an anchor", "", CodeAnchorAliasTag, 1},
	{"while scanning an alias", "", CodeAnchorAliasTag, 1},
	{"while scanning a tag", "", CodeAnchorAliasTag, 2},
	{"", "found undefined tag handle", CodeAnchorAliasTag, 2},
}

// syntaxRow is the code and message of libyaml's problem, met in context.
func syntaxRow(context, problem string) (Code, string) {
	for _, row := range syntaxRows {
		if row.context != "" && !strings.HasPrefix(context, row.context) {
			continue
		}
		if row.problem != "" && !strings.HasPrefix(problem, row.problem) && !strings.HasPrefix(context, row.problem) {
			continue
		}
		return row.code, catalogue[row.code].Messages[row.message]
	}
	return CodeSyntax, catalogue[CodeSyntax].Messages[0]
}

// readsEventsFirst reports whether the Python library reads the events of
// data's first document before it composes them: to count its nodes (a
// text that might be over a budget), or to look for the texts yaml.v3
// reads otherwise token by token (a tag that ',' ends, the escape %00 in a
// tag, the escape \/).
func readsEventsFirst(data []byte) bool {
	return budget.Limits{Nodes: MaxNodes, Depth: MaxDepth}.MightExceed(data) || bytes.Contains(data, []byte("%00")) ||
		bytes.Contains(data, []byte(`\/`)) || tagThenComma.Match(data)
}

// tagThenComma is a '!' whose tag characters run into a ','.
var tagThenComma = regexp.MustCompile(`![-\w;/?:@&=+$.%!~*'()]*,`)

// yamlv3MaxDepth is the nesting past which yaml.v3 refuses a text
// ("exceeded max depth").
const yamlv3MaxDepth = 10000

// folded is the value of a plain scalar written over the lines of text, as
// YAML folds them: each line trimmed of its blanks, one line break read as
// a space, and more as one newline fewer than they are.
func folded(text []byte) string {
	lines := lineBreak.Split(string(text), -1)
	var b strings.Builder
	b.WriteString(strings.TrimRight(lines[0], " \t"))
	breaks := 0
	for _, line := range lines[1:] {
		line = strings.Trim(line, " \t")
		if line == "" {
			breaks++
			continue
		}
		if breaks > 0 {
			b.WriteString(strings.Repeat("\n", breaks))
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(line)
		breaks = 0
	}
	return b.String()
}

// lineBreak is a line break inside a plain scalar as the Python library
// folds one.
var lineBreak = regexp.MustCompile("\r\n|\r|\n|\u0085")
