package taskspec

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// Some text yaml.v3 cannot read, libyaml (and so the Python library) can,
// and then refuses for a reason of its own: a %YAML directive other than
// 1.1, a '?' inside a plain scalar in [] or {}. Reporting yaml.v3's syntax error for them would give
// another problem than the Python library's; readsStricter gives the same
// one. (The escape \/ in a double-quoted scalar, which libyaml reads too,
// is a syntax error in both libraries, where yaml.v3 meets it.)

var yamlDirective = regexp.MustCompile(`(?m)^%YAML[ \t]+(\d+)\.(\d+)`)

// readsStricter returns the Python library's refusal of a text yaml.v3
// could not read (err), when it has one: the spec read and the walk's
// problems (in w) or an error. ok is false when yaml.v3's error stands.
func (w *walker) readsStricter(err error) (*eval.TaskSpec, error, bool) {
	text := err.Error()
	data := w.text.Bytes()
	// yaml.v3 cannot read it: the Go package refuses it, so no refusal here
	// is a stricter one.
	w.goRejects = true
	switch {
	case strings.Contains(text, "incompatible YAML document"):
		if m := yamlDirective.FindSubmatchIndex(data); m != nil {
			major, _ := strconv.Atoi(string(data[m[2]:m[3]]))
			minor, _ := strconv.Atoi(string(data[m[4]:m[5]]))
			if major == 1 && minor != 1 { // libyaml refuses another major version
				line, _ := w.text.LineColumn(m[0])
				// At the document's start, as libyaml marks it: its first
				// directive.
				for line > 1 && len(w.text.Line(line-1)) > 0 && w.text.Line(line - 1)[0] == '%' {
					line--
				}
				return nil, &StrictError{Line: line, Column: 1, Reason: fmt.Sprintf(
					"%%YAML %d.%d is not supported: yaml.v3 reads only YAML 1.1 documents (%%YAML 1.1, or no directive)", major, minor)}, true
			}
		}
	case bytes.IndexByte(data, '?') >= 0:
		// The same text with such a '?' as 'Q', which yaml.v3 reads with
		// the same lines and columns; the walk refuses it where the Python
		// library does, from the text as written.
		fixed := flowQuestionsOut(data)
		if bytes.Equal(fixed, data) {
			break
		}
		retry := &walker{text: source.New(fixed), budget: MaxNodes, orig: data}
		m, rerr := retry.decode()
		if len(retry.problems) == 0 || rerr != nil && !topNotMapping(retry.problems[0]) {
			// The copy cannot be read either, holds nothing the walk
			// refuses, or is refused for what the copy changed: yaml.v3's
			// error stands. Where the top of the document is not a mapping,
			// the Python library reads no further either.
			break
		}
		retry.text, retry.orig = w.text, nil
		*w = *retry
		w.goRejects = true
		return m, rerr, true
	}
	return nil, nil, false
}

// flowQuestionsOut returns data with each '?' that yaml.v3 would end a
// plain scalar at inside [] or {} (any '?' inside the scalar, followed by
// a blank or not) as 'Q'.
func flowQuestionsOut(data []byte) []byte {
	out := bytes.Clone(data)
	depth := 0
	plain := false // inside a plain scalar in [] or {}, which may go on over blanks and lines
	for i := 0; i < len(out); i++ {
		c := out[i]
		// Where a quoted scalar or a flow collection may start in block
		// context: a quote or a bracket after text (it's, a{b) is text.
		blockStart := depth == 0 && (i == 0 || yamlscan.IsBlankOrBreak(out[i-1]))
		switch {
		case yamlscan.IsBlankOrBreak(c):
			continue
		case c == '#' && (i == 0 || yamlscan.IsBlankOrBreak(out[i-1])):
			for i < len(out) && out[i] != '\n' {
				i++
			}
			continue
		case (c == '"' || c == '\'') && (blockStart || depth > 0 && !plain):
			i = yamlscan.SkipQuoted(out, i) - 1
			plain = false
			continue
		}
		switch {
		case (c == '[' || c == '{') && (blockStart || depth > 0 && !plain):
			depth++
			plain = false
		case (c == ']' || c == '}') && depth > 0:
			depth--
			plain = false
		case depth == 0:
		case c == ',' || c == ':' && blankzOrFlowAt(out, i+1):
			plain = false
		case c == '?' && (!plain || out[i-1] == ':'):
			// At a token's start: a key indicator to libyaml, not text. After
			// ':' it is left as written: the ':' ends the scalar to libyaml
			// there, which the walk of a copy would not see.
		case c == '?':
			// Inside a plain scalar, whatever follows: yaml.v3 ends a plain
			// scalar at any '?' inside [] or {}, libyaml at none.
			out[i] = 'Q'
		default:
			plain = true
		}
	}
	return out
}

// blankzOrFlowAt reports whether offset i of data ends a token inside []
// or {}: a blank, a line break, a flow indicator or the end.
func blankzOrFlowAt(data []byte, i int) bool {
	return blankzAt(data, i) || yamlscan.IsFlowIndicator(data[i])
}

// flowQuestion refuses the collection n written in [] or {} when one of
// its plain scalars held a '?' as written, which yaml.v3 cannot read, as
// the Python library refuses it: the whole collection, at the scalar.
func (w *walker) flowQuestion(n *yaml.Node, path string) bool {
	if w.orig == nil || n.Style&yaml.FlowStyle == 0 {
		return false
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			continue
		}
		at := w.text.Offset(c.Line, c.Column)
		if at < 0 || at >= len(w.orig) {
			continue
		}
		at = pastProperties(w.orig, at)
		end := flowPlainEnd(w.text.Bytes(), at) // the copy, where such a '?' is 'Q'

		if end <= len(w.orig) && bytes.IndexByte(w.orig[at:end], '?') >= 0 {
			w.fail(c, path, "'?' in the plain scalar %s inside [] or {}: yaml.v3 cannot read it; quote the string", wording.Quote(asWritten(c.Value, w.orig[at:end])))
			w.markBad(n) // the whole collection is refused, and left out of what is read
			return true
		}
	}
	return false
}

// asWritten returns value, the plain scalar yaml.v3 read from a copy of
// the text, with the characters of text, the scalar as written: folding
// over lines changes only blanks and line breaks, so the other bytes
// correspond in order. value itself when they do not.
func asWritten(value string, text []byte) string {
	var marks []byte
	for _, c := range text {
		if !yamlscan.IsBlankOrBreak(c) {
			marks = append(marks, c)
		}
	}
	out := []byte(value)
	k := 0
	for j, c := range out {
		if yamlscan.IsBlankOrBreak(c) {
			continue
		}
		if k == len(marks) {
			return value
		}
		out[j] = marks[k]
		k++
	}
	if k != len(marks) {
		return value
	}
	return string(out)
}

// topNotMapping reports whether p refuses the top of the document for not
// being a mapping, a refusal that holds of the text as written too.
func topNotMapping(p Violation) bool {
	return p.Code == codeWrongType && p.FieldPath == ""
}
