package yamlrules

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// This file places a syntax error yaml.v3 gives where libyaml, and so the
// Python library, gives it: yaml.v3 names the line of the problem's
// context, libyaml the problem's own.

// yamlProblem splits a yaml.v3 problem text (without "yaml: ") into the
// 1-based line it names and the problem: yaml.v3 names the line of the
// problem's context, or else of the problem, 1-based for a scanner's
// problem, 0-based for a parser's, and none at all for 0 (line 1).
func yamlProblem(text string) (int, string) {
	m := yamlLine.FindStringSubmatch(text)
	if m == nil {
		return 1, text
	}
	line, _ := strconv.Atoi(m[1])
	text = text[len(m[0]):]
	if parserProblem(text) {
		line++
	}
	return line, text
}

// problemLine returns the line libyaml names for yaml.v3's problem text
// problem, which yaml.v3 reports at line: the line of the problem's own
// token. yaml.v3 names instead the line where the problem's context starts
// (the collection, quoted scalar or key it is in), unless that is the
// first line of the text, when it names the problem's. So the text is read
// again from the line named: if yaml.v3 meets the same problem there, its
// context now starts the text, and the line it names is the problem's.
// Reading on from a line does not change what the context holds, since
// the context starts on it.
func problemLine(data []byte, problem string, line int) int {
	if line <= 1 {
		return line
	}
	src := source.New(data)
	starts := src.LineStarts()
	if line > len(starts) {
		return line
	}
	if problem == "could not find expected ':'" {
		// A key that needs a ':' on its line (one at its mapping's
		// indentation): libyaml's scanner notices the ':' missing where
		// it goes on to the next token, on a later line, or at the end.
		return nextTokenLine(src, line)
	}
	var doc yaml.Node
	err := yaml.Unmarshal(data[starts[line-1]:], &doc)
	if err == nil {
		return line
	}
	at, again := yamlProblem(strings.TrimPrefix(err.Error(), "yaml: "))
	if again != problem {
		return line
	}
	return line + at - 1
}

// nextTokenLine returns the first line after line that holds more than
// blanks and a comment, or the line the end of the text is on: where
// libyaml's scanner goes on to from line.
func nextTokenLine(t *source.Text, line int) int {
	starts := t.LineStarts()
	for l := line + 1; l <= len(starts); l++ {
		rest := bytes.TrimLeft(yamlscan.TrimLineBreak(t.Line(l)), " \t")
		if len(rest) > 0 && rest[0] != '#' {
			return l
		}
	}
	end, _ := t.LineColumn(len(t.Bytes()))
	return end
}

// directivesAt returns the line of the token libyaml's parser
// finds instead of "---" after the directives before line (a run of lines
// with '%' first, no "..." after them), its "did not find expected
// <document start>", and whether there is one: not when "---" follows
// them. (A directive libyaml cannot read is yaml.v3's error too, on the
// directive's own line, before the line returned.)
func directivesAt(t *source.Text, line int) (int, bool) {
	l := directiveLine(t, line) // as directiveBefore
	if l < 1 {
		return 0, false
	}
	for l <= len(t.LineStarts()) && (isCommentOrBlank(t.Line(l)) || t.Line(l)[0] == '%') {
		l++
	}
	if isMarker(yamlscan.TrimLineBreak(t.Line(l)), "---") {
		return 0, false
	}
	return l, true
}

// badEscapeReason is the refusal of an escape YAML does not have, which
// libyaml refuses and yaml.v3 reads (\').
const badEscapeReason = "invalid YAML: unknown escape in a double-quoted value"

// aliasLine returns the line of the first alias to name in data, where
// yaml.v3 names none, or line 1.
func aliasLine(data []byte, name string) int {
	for at := 0; ; {
		i := bytes.Index(data[at:], []byte("*"+name))
		if i < 0 {
			return 1
		}
		i += at
		end := i + 1 + len(name)
		if (i == 0 || strings.IndexByte(" \t\n\r[{,", data[i-1]) >= 0) && (end == len(data) || strings.IndexByte(" \t\n\r]},", data[end]) >= 0) {
			line, _ := source.New(data).LineColumn(i)
			return line
		}
		at = i + 1
	}
}

// parserProblem reports whether a problem text is one of libyaml's
// parser, not its scanner.
func parserProblem(text string) bool {
	for _, p := range []string{"did not find expected key", "did not find expected '-' indicator",
		"did not find expected node content", "did not find expected ',' or", "did not find expected <document start>",
		"found undefined tag handle", "found duplicate %", "found incompatible YAML document", "unknown anchor"} {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

var (
	yamlLine      = regexp.MustCompile(`^line (\d+): `)
	unknownAnchor = regexp.MustCompile(`unknown anchor '(.*)' referenced`)
)

// Syntax returns the line where libyaml reports the syntax error that
// yaml.v3 reported as text (its error without "yaml: "), and the problem:
// in libyaml's words, which yaml.v3 shares, or, where libyaml meets another
// problem first or names it otherwise, that problem in the catalogue's
// words without "invalid YAML: ". The column of a syntax problem is not
// part of the agreement (which parser stops first, and where, can differ),
// so none is given; nor is the choice among problems libyaml would make
// copied, but where the shared problem table needs it (the directives no
// "---" follows).
func (r *Rules) Syntax(text string) (line int, problem string) {
	// yaml.v3 names the line of the problem's context; libyaml, the
	// problem's (see problemLine).
	line, found := yamlProblem(text)
	line = problemLine(r.text.Bytes(), found, line)
	problem = found
	if start, ok := r.directivesWithoutStart(line); ok {
		// Directives before the problem that no "---" follows: libyaml's
		// parser stops at the token after them, before the problem
		// yaml.v3's scanner, reading further ahead, stops at.
		line, problem = start, strings.TrimPrefix(directiveWithoutStart, "invalid YAML: ")
	}
	if l, ok := r.unknownAlias(found); ok {
		line = l
	} else if strings.Contains(problem, "found unexpected end of stream") {
		// libyaml meets the end of the text, still inside the quotes.
		line, _ = r.text.LineColumn(len(r.text.Bytes()))
	}
	return line, problem
}

// directivesWithoutStart returns the line of the token libyaml's parser
// finds instead of "---" after directives, its "did not find expected
// <document start>", when that comes before line, where yaml.v3's scanner,
// reading further ahead, stops at a problem; ok is false when there is
// none.
func (r *Rules) directivesWithoutStart(line int) (start int, ok bool) {
	start, ok = directivesAt(r.text, line)
	return start, ok && start <= line
}

// unknownAlias returns the line of the first alias to the anchor yaml.v3's
// problem text names as unknown, where yaml.v3 names no place (line 1 when
// it is not found), and whether the text names one.
func (r *Rules) unknownAlias(text string) (line int, ok bool) {
	m := unknownAnchor.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	return aliasLine(r.text.Bytes(), m[1]), true
}
