package yamlrules

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// Where a tag ends.
//
// A tag written "!suffix" or "!handle!suffix" ends, in libyaml (the Python
// library's parser), at the first character outside the URI characters of
// YAML 1.1: letters, digits and "-_;/?:@&=+$.%!~*'()". yaml.v3 also counts
// ',', '[' and ']' as part of the tag, so the two readers part ways at a
// tag that runs into one of those:
//
//   - '[' or ']', or ',' outside [] and {}: libyaml stops the tag there and
//     fails, as the character is not the space or line break a tag must end
//     with; yaml.v3 reads the longer tag. The Python library gives libyaml's
//     syntax error, and so does the Go library, in its words.
//   - ',' inside [] or {}: libyaml ends the tag, which then belongs to an
//     empty node before the comma ([!!str, go] is two items, "" and "go");
//     yaml.v3 reads "!!str," as the tag of "go" ([go]). Both libraries
//     refuse it as stricter than Go, in the same words.
//
// A verbatim tag ("!<...>") may hold all three characters in both readers.
//
// A tag may also hold the escape "%00", a NUL. libyaml hands a tag over as
// a C string, which ends at the NUL ("!!str%00x" is "!!str", and "!%00" the
// non-specific "!"); yaml.v3 keeps the whole tag, which it then does not
// know. Both libraries refuse such a tag, in the same words.

// tagSyntaxError is libyaml's error for a tag it ends before yaml.v3 does.
const tagSyntaxError = "invalid YAML: a tag (!) cannot be read"

// isAnchorChar reports whether c may be part of an anchor's name: a letter,
// a digit, '-' or '_', in both readers.
func isAnchorChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// isTagChar reports whether libyaml reads c as part of a tag outside "<>".
func isTagChar(c byte) bool {
	return isAnchorChar(c) || bytes.IndexByte([]byte(";/?:@&=+$.%!~*'()"), c) >= 0
}

// mayEndTagEarly reports whether data has a '!' followed by tag characters
// and one of ",[]": the only text on which the readers can part ways over a
// tag. Most documents have none, and are not walked for tags at all.
func mayEndTagEarly(data []byte) bool {
	for i := bytes.IndexByte(data, '!'); i >= 0; {
		j := i + 1
		for j < len(data) && isTagChar(data[j]) {
			j++
		}
		if j < len(data) && (data[j] == ',' || data[j] == '[' || data[j] == ']') {
			return true
		}
		next := bytes.IndexByte(data[j:], '!')
		if next < 0 {
			break
		}
		i = j + next
	}
	return false
}

// tagAt returns the offset of the tag among the properties that start at
// offset at ("&a !t", "!t &a", "&a # note" then "!t" on the next line), or
// -1 when they hold none.
func tagAt(data []byte, at int) int {
	if at < len(data) && data[at] == '&' { // one anchor, then the tag
		at++
		for at < len(data) && isAnchorChar(data[at]) {
			at++
		}
		if at >= len(data) || (!yamlscan.IsBlank(data[at]) && yamlscan.LineBreakAt(data, at) == 0) {
			return -1 // the anchor is all: ':' or ',' follows it
		}
		at = pastSeparation(data, at)
	}
	if at < len(data) && data[at] == '!' {
		return at
	}
	return -1
}

// tagSpan returns the byte offsets of the tag among the properties that
// start at offset at, ending where libyaml ends it, or ok false when there
// is none or it is verbatim. noSuffix reports a handle ("!!", "!e!") with
// nothing after it, which libyaml refuses whatever follows.
func tagSpan(data []byte, at int) (start, end int, noSuffix, ok bool) {
	start = tagAt(data, at)
	if start < 0 || (start+1 < len(data) && data[start+1] == '<') {
		return 0, 0, false, false
	}
	handle := start + 1
	for handle < len(data) && isAnchorChar(data[handle]) {
		handle++
	}
	end = start + 1
	for end < len(data) && isTagChar(data[end]) {
		end++
	}
	return start, end, handle < len(data) && data[handle] == '!' && end == handle+1, true
}

// tagWithNul returns the tag among the properties that start at offset at,
// as written, if it holds the escape "%00", or "". A verbatim tag runs to
// its '>', any other to the end of its characters. A '%' starts an escape
// of two hex digits, so "%2500" is no NUL.
func tagWithNul(data []byte, at int) string {
	start := tagAt(data, at)
	if start < 0 {
		return ""
	}
	end := start + 1
	if end < len(data) && data[end] == '<' {
		if i := bytes.IndexByte(data[end:], '>'); i >= 0 {
			end += i + 1
		} else {
			end = len(data)
		}
	} else {
		for end < len(data) && isTagChar(data[end]) {
			end++
		}
	}
	tag := data[start:end]
	for i := 0; i < len(tag); i++ {
		if tag[i] == '%' {
			if bytes.HasPrefix(tag[i+1:], []byte("00")) {
				return string(tag)
			}
			i += 2 // past the escape's two digits
		}
	}
	return ""
}

// tagWithNulMessage is the refusal of a tag that holds "%00".
func tagWithNulMessage(tag string) string {
	return fmt.Sprintf("the tag %s holds %%00, a NUL byte: YAML readers disagree on where it ends; remove the %%00", wording.Quote(tag))
}

// tagEndingEarly returns the refusal of the first tag of the tree doc,
// parsed by yaml.v3 from t, that libyaml ends before yaml.v3 does, or nil:
// libyaml's syntax error, or the stricter refusal of a tag ending at a
// comma or holding a NUL. The readers part ways there, so what follows, in
// the text and in the tree, is not looked at. The tag is read from t, so a
// tree parsed from a cut of it, with brackets added at the end, gives the
// same answer.
func tagEndingEarly(t *source.Text, doc *yaml.Node) (err *Problem) {
	commas := mayEndTagEarly(t.Bytes())
	nuls := bytes.Contains(t.Bytes(), []byte("%00"))
	if !commas && !nuls {
		return nil
	}
	var walk func(n *yaml.Node, inFlow bool)
	walk = func(n *yaml.Node, inFlow bool) {
		if err != nil {
			return
		}
		if commas && n.Style&yaml.TaggedStyle != 0 {
			if at := t.Offset(n.Line, n.Column); at >= 0 {
				if start, end, noSuffix, ok := tagSpan(t.Bytes(), at); ok && end < len(t.Bytes()) {
					switch c := t.Bytes()[end]; {
					case c == '[' || c == ']' || (c == ',' && (!inFlow || noSuffix)):
						// (A handle with nothing after it is a syntax error
						// at a ',' inside [] or {} too.)
						line, column := t.LineColumn(end)
						err = &Problem{Line: line, Column: column, Message: tagSyntaxError, Code: codeAnchorAliasTag}
						return
					case c == ',':
						err = &Problem{Line: n.Line, Column: n.Column, Message: TagThenComma(string(t.Bytes()[start:end])), Code: codeUnsupported}
						return
					}
				}
			}
		}
		if nuls && n.Kind != yaml.AliasNode && n.Kind != yaml.DocumentNode {
			if at := t.Offset(n.Line, n.Column); at >= 0 {
				if tag := tagWithNul(t.Bytes(), at); tag != "" {
					err = &Problem{Line: n.Line, Column: n.Column, Message: tagWithNulMessage(tag), Code: codeUnsupported}
					return
				}
			}
		}
		flow := inFlow || (n.Style&yaml.FlowStyle != 0 && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode))
		for _, c := range n.Content {
			walk(c, flow)
		}
	}
	walk(doc, false)
	return err
}

// TagThenComma is the refusal of a tag that libyaml ends at a comma.
func TagThenComma(tag string) string {
	return fmt.Sprintf("the tag %s is followed by ',' with no space: YAML readers disagree on where it ends; put a space after the tag", wording.Quote(tag))
}

// BangTagged reports whether an untagged plain scalar was written with the
// non-specific tag "!" ("! 5"). yaml.v3 drops that tag without a trace in
// the node, so the source is read: a node starts at its properties.
func (r *Rules) BangTagged(n *yaml.Node) bool {
	if r.bangs == 0 {
		// Looked for once: every integer asks, and a document of many
		// integers and one '!' must not be scanned once per integer. Only
		// a '!' that the test below can take for the tag counts: one that
		// ends the text or is followed by '<' or a character no tag holds
		// ("!=" in a prompt's code is none), so that a text without one
		// is never placed line by line for it.
		r.bangs = 1
		if hasBareBang(r.text.Bytes()) {
			r.bangs = 2
		}
	}
	if r.bangs == 1 {
		return false
	}
	at := r.text.Offset(n.Line, n.Column)
	if at < 0 {
		return false
	}
	t := tagAt(r.text.Bytes(), at)
	// An empty node's properties may run on to the next line, where the
	// tag may be the next node's: a named one ("!a"), which yaml.v3 keeps,
	// or "!" where the next node starts.
	return t >= 0 && (t+1 == len(r.text.Bytes()) || r.text.Bytes()[t+1] == '<' || !isTagChar(r.text.Bytes()[t+1])) &&
		(n.Value != "" || t == at || !r.nodeStartsAt(t))
}

// hasBareBang reports whether data has a '!' at its end or followed by
// '<' or by a character that is not part of a tag.
func hasBareBang(data []byte) bool {
	for i := bytes.IndexByte(data, '!'); i >= 0; {
		if i+1 == len(data) || data[i+1] == '<' || !isTagChar(data[i+1]) {
			return true
		}
		next := bytes.IndexByte(data[i+1:], '!')
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// nodeStartsAt reports whether a node of the document starts at offset at
// (at its properties, if it has any).
func (r *Rules) nodeStartsAt(at int) bool {
	if r.starts == nil {
		r.starts = make(map[position]bool)
		if r.doc != nil {
			visit(r.doc, func(n *yaml.Node) { r.starts[position{n.Line, n.Column}] = true })
		}
	}
	line, column := r.text.LineColumn(at)
	return r.starts[position{line, column}]
}
