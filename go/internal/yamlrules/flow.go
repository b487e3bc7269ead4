package yamlrules

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// This file holds the rules of plain scalars inside [] and {}, where the
// readers end them at different characters, and the reading of a node's
// properties (anchor and tag) from the text.

// flowColons refuses a plain scalar ending in ':' inside [] or {}
// ([go, a:, b]): yaml.v3 reads "a:", libyaml cannot read the document.
//
// Inside [] and {}, yaml.v3 ends a plain scalar at ": " or at one of
// ",?[]{}", and libyaml fails on a ':' followed by one of ",?[]{}". So a
// scalar yaml.v3 reads as ending in ':' is one libyaml fails on, unless it
// ended at ": ": the key "a:" of {a:: 1} is the same to both readers.
func (r *Rules) flowColons(doc *yaml.Node) *Problem {
	var found *yaml.Node
	visit(doc, func(n *yaml.Node) {
		if !isCollection(n, true) {
			return
		}
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && c.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 &&
				strings.HasSuffix(c.Value, ":") &&
				(found == nil || c.Line < found.Line || (c.Line == found.Line && c.Column < found.Column)) &&
				!endsAtColon(r.text, c) {
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
	if at := r.text.Offset(found.Line, found.Column); at >= 0 {
		line, column = r.text.LineColumn(pastProperties(r.text.Bytes(), at))
	}
	return &Problem{Line: line, Column: column, Message: FlowColonReason(found.Value), Code: codeUnsupported}
}

// FlowColonReason is the refusal of a plain scalar ending in ':' inside []
// or {}, quoting its value.
func FlowColonReason(value string) string {
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
// anchor and tag, if it has them (at most one of each, in either order,
// "&a !t" or "!t &a"), start at offset at, as yaml.v3 reads them: its
// tags may hold ',', '[' and ']'. Past the properties come the blanks,
// line breaks and comments before the content.
func pastProperties(data []byte, at int) int {
	next := at
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
				return len(data)
			}
			at += closing + 1
		case data[at] == '!' && !tag:
			tag = true
			for at++; at < len(data) && (isTagChar(data[at]) || data[at] == ',' || data[at] == '[' || data[at] == ']'); at++ {
			}
		default:
			return next
		}
		at = pastSeparation(data, at)
		next = at
	}
	return next
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
		blockStart := depth == 0 && (c == '"' || c == '\'' || c == '[' || c == '{') &&
			(i == 0 || yamlscan.IsBlankOrBreak(out[i-1])) && nodeStart(out, i)
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

// nodeStart reports whether a node may start at offset i of data, in block
// context: at the start of its line, after an indicator (':', '-', '?')
// or after the node's properties (an anchor, a tag). Past other text on
// the line ("timeout_seconds: 12 [a?b]"), a bracket or a quote is part of
// a plain scalar, not the start of a collection or of a quoted scalar.
func nodeStart(data []byte, i int) bool {
	for {
		j := i - 1
		for j >= 0 && (data[j] == ' ' || data[j] == '\t') {
			j--
		}
		if j < 0 || data[j] == '\n' || data[j] == '\r' {
			return true
		}
		if data[j] == ':' || (data[j] == '-' || data[j] == '?') && (j == 0 || yamlscan.IsBlankOrBreak(data[j-1])) {
			return true
		}
		start := j
		for start > 0 && !yamlscan.IsBlankOrBreak(data[start-1]) {
			start--
		}
		if data[start] != '&' && data[start] != '!' {
			return false
		}
		i = start
	}
}

// blankzOrFlowAt reports whether offset i of data ends a token inside []
// or {}: a blank, a line break, a flow indicator or the end.
func blankzOrFlowAt(data []byte, i int) bool {
	return blankzAt(data, i) || yamlscan.IsFlowIndicator(data[i])
}

// FlowQuestion returns the refusal of the collection n written in [] or
// {}, when the text is Stricter's copy and one of its plain scalars, at,
// held a '?' as written, which yaml.v3 cannot read: the Python library
// refuses the whole collection, at the scalar.
func (r *Rules) FlowQuestion(n *yaml.Node) (at *yaml.Node, message string, ok bool) {
	if r.orig == nil || n.Style&yaml.FlowStyle == 0 {
		return nil, "", false
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			continue
		}
		at := r.text.Offset(c.Line, c.Column)
		if at < 0 || at >= len(r.orig) {
			continue
		}
		at = pastProperties(r.orig, at)
		end := flowPlainEnd(r.text.Bytes(), at) // the copy, where such a '?' is 'Q'

		if end <= len(r.orig) && bytes.IndexByte(r.orig[at:end], '?') >= 0 {
			return c, fmt.Sprintf("'?' in the plain scalar %s inside [] or {}: yaml.v3 cannot read it; quote the string", wording.Quote(asWritten(c.Value, r.orig[at:end]))), true
		}
	}
	return nil, "", false
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
