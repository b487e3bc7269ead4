package yaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
)

// readV3 is yaml.v3's tree of data's first document (nil for an empty
// stream), and whether a second document follows. yaml.v3 reads a stream
// lazily: what follows the first document is read by a second Decode,
// whose error is yaml.v3 refusing the text when no second document starts
// (a second document's own content is the caller's, as for our reader).
func readV3(data []byte, secondStarts bool) (n *yamlv3.Node, next bool, err error) {
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	var doc yamlv3.Node
	err = dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var second yamlv3.Node
	switch err := dec.Decode(&second); {
	case err == nil:
		return &doc, true, nil
	case errors.Is(err, io.EOF):
		return &doc, false, nil
	case secondStarts:
		return &doc, true, nil
	default:
		return nil, false, err
	}
}

var v3Kinds = map[Kind]yamlv3.Kind{
	DocumentNode: yamlv3.DocumentNode, SequenceNode: yamlv3.SequenceNode,
	MappingNode: yamlv3.MappingNode, ScalarNode: yamlv3.ScalarNode, AliasNode: yamlv3.AliasNode,
}

var v3Styles = map[Style]yamlv3.Style{
	SingleQuotedStyle: yamlv3.SingleQuotedStyle, DoubleQuotedStyle: yamlv3.DoubleQuotedStyle,
	LiteralStyle: yamlv3.LiteralStyle, FoldedStyle: yamlv3.FoldedStyle, FlowStyle: yamlv3.FlowStyle,
}

// v3Tag is the tag yaml.v3's parser gives a node read as n was (its
// node()): an explicit tag other than "!" in short form, else a default
// (a quoted scalar is a string, a plain "<<" the merge key, a collection
// its kind) or what the resolver makes of a plain scalar's text.
func v3Tag(n *Node) string {
	if n.Tag != "" && n.Tag != "!" {
		return ShortTag(n.Tag)
	}
	switch n.Kind {
	case SequenceNode:
		return SeqTag
	case MappingNode:
		return MapTag
	case ScalarNode:
		if n.Style != PlainStyle {
			return StrTag
		}
		tag, _ := Resolve(n.Value)
		return tag
	}
	return ""
}

// sameTree reports the first difference between our tree and yaml.v3's,
// or "": kind, style, tag, value, anchor, alias target, line and column.
func sameTree(ours *Node, theirs *yamlv3.Node) string {
	seen := map[*Node]*yamlv3.Node{}
	var walk func(path string, a *Node, b *yamlv3.Node) string
	walk = func(path string, a *Node, b *yamlv3.Node) string {
		seen[a] = b
		style := v3Styles[a.Style]
		if a.Tag != "" && a.Tag != "!" {
			style |= yamlv3.TaggedStyle
		}
		value := a.Value
		got := fmt.Sprintf("kind %d style %d tag %q value %q anchor %q at %d:%d",
			v3Kinds[a.Kind], style, v3Tag(a), value, a.Anchor, a.Start.Line+1, a.Start.Column+1)
		want := fmt.Sprintf("kind %d style %d tag %q value %q anchor %q at %d:%d",
			b.Kind, b.Style, b.Tag, b.Value, b.Anchor, b.Line, b.Column)
		if got != want {
			return fmt.Sprintf("%s: %s; yaml.v3's %s", path, got, want)
		}
		if a.Kind == AliasNode {
			if seen[a.Alias] != b.Alias {
				return fmt.Sprintf("%s: alias %q refers to another node", path, a.Value)
			}
			return ""
		}
		if len(a.Content) != len(b.Content) {
			return fmt.Sprintf("%s: %d children; yaml.v3's %d", path, len(a.Content), len(b.Content))
		}
		for i := range a.Content {
			if d := walk(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i]); d != "" {
				return d
			}
		}
		return ""
	}
	return walk("", ours, theirs)
}

// compare reads data with both readers and returns how they differ, or "".
func compare(data []byte) string {
	doc, err := Parse(data, Options{})
	theirs, next, v3err := readV3(data, err == nil && doc.Next != nil)
	switch {
	case err != nil && v3err != nil:
		return ""
	case err != nil:
		return fmt.Sprintf("we refuse it (%v); yaml.v3 reads it", err)
	case v3err != nil:
		return fmt.Sprintf("we read it; yaml.v3 refuses it (%v)", v3err)
	case doc.Root == nil || theirs == nil:
		if (doc.Root == nil) != (theirs == nil) {
			return fmt.Sprintf("empty stream: ours %v, yaml.v3's %v", doc.Root == nil, theirs == nil)
		}
		return ""
	case (doc.Next != nil) != next:
		return fmt.Sprintf("a second document: ours %v, yaml.v3's %v", doc.Next != nil, next)
	}
	return sameTree(doc.Root, theirs)
}

// TestTreesEqualYAMLv3 reads every document of the fixture with both
// readers: where both accept it, the trees are equal; where they differ,
// the difference is one of the named ones (see the package doc), and is
// logged.
func TestTreesEqualYAMLv3(t *testing.T) {
	f := loadFixture(t)
	type doc struct {
		name string
		data []byte
	}
	var docs []doc
	for i, c := range f.Cases {
		docs = append(docs, doc{fmt.Sprintf("case %d", i), c.data(t)})
	}
	for _, file := range f.Files {
		if data := fileData(t, file.Name); !utf16BOM(data) {
			docs = append(docs, doc{file.Name, data})
		}
	}
	compared, differ := 0, 0
	for _, d := range docs {
		diff := compare(d.data)
		if diff == "" {
			compared++
			continue
		}
		differ++
		name := classify(d.data, diff)
		if name == "" {
			t.Errorf("%s %q: %s, and no named difference explains it", d.name, d.data, diff)
			continue
		}
		t.Logf("%s: difference %q: %s", d.name, name, diff)
	}
	if compared < len(docs)*9/10 {
		t.Errorf("only %d of %d documents read alike", compared, len(docs))
	}
	t.Logf("%d documents read alike, %d differ by a named difference", compared, differ)
}

// classify names the known difference between libyaml and yaml.v3 that
// explains diff, how the readers differ on data, or "". Each name is
// documented at the routine where the difference arises (see the package
// doc); the tests look for the construct that shows it.
func classify(data []byte, diff string) string {
	s := string(data)
	for _, d := range differences {
		if d.shows(s, diff) {
			return d.name
		}
	}
	return ""
}

type difference struct {
	name  string
	shows func(text, diff string) bool
}

func matches(re string) func(string, string) bool {
	r := regexp.MustCompile(re)
	return func(text, _ string) bool { return r.MatchString(text) }
}

// differences are the named differences, each with the construct that
// shows it.
var differences = []difference{
	{"utf16", func(text, _ string) bool { return utf16BOM([]byte(text)) }},
	{"depth-limit", func(_, diff string) bool { return strings.Contains(diff, "exceeded max depth") }},
	{"flow-pair-empty-value-mark", func(text, diff string) bool {
		return markOnly(diff) && strings.Contains(diff, `tag "!!null" value ""`) &&
			regexp.MustCompile(`:[ \t\r\n]*[,\]]`).MatchString(text)
	}},
	{"block-end-mark", func(_, diff string) bool {
		return markOnly(diff) && strings.Contains(diff, `tag "!!null" value ""`)
	}},
	{"escape-quote", both(matches(`\\'`), mentions("we refuse it", "found unknown escape character"))},
	{"escape-slash", both(matches(`\\/`), mentions("yaml.v3 refuses it", "found unknown escape character"))},
	{"yaml-version", both(matches(`%YAML +1\.2`), mentions("found incompatible YAML document"))},
	{"second-document-lookahead", func(text, diff string) bool {
		return strings.HasPrefix(diff, "we read it") &&
			regexp.MustCompile(`[\r\n\x{85}\x{2028}\x{2029}](---|\.\.\.)([ \t\r\n]|$)`).MatchString(text)
	}},
	{"bom-at-index", func(text, _ string) bool { return strings.Contains(strings.TrimPrefix(text, "\uFEFF"), "\uFEFF") }},
	{"nul-in-tag", matches(`!\S*%00`)},
	{"tag-uri-flow-chars", matches(`(^|[\s\[{,])![^\s]*[,\[\]{}]`)},
	{"flow-colon", both(matches(`(?s)[\[{].*:[,?\[\]{}]`), mentions("we refuse it", "found unexpected ':'"))},
	{"flow-question", matches(`(?s)[\[{].*[^\s\[\]{},:?][ \t]*\?`)},
	{"indicator-tab", both(matches(`[?:]\t[ \t]*#`), mentions("we refuse it", "found character that cannot start any token"))},
	{"tab-among-comments", both(matches(`#[^\n]*\n([ \t]*(#[^\n]*)?\n)*[ ]*\t`),
		mentions("we refuse it", "found character that cannot start any token"))},
}

// both is a construct that shows a difference only where a and b do.
func both(a, b func(string, string) bool) func(string, string) bool {
	return func(text, diff string) bool { return a(text, diff) && b(text, diff) }
}

// mentions is a difference whose description holds each of words.
func mentions(words ...string) func(string, string) bool {
	return func(_, diff string) bool {
		for _, w := range words {
			if !strings.Contains(diff, w) {
				return false
			}
		}
		return true
	}
}

// markOnly reports whether diff, from sameTree, is a node at another place
// and nothing else.
func markOnly(diff string) bool {
	ours, theirs, ok := strings.Cut(diff, "; yaml.v3's ")
	if !ok {
		return false
	}
	_, ours, _ = strings.Cut(ours, ": ")
	ours, _, _ = strings.Cut(ours, " at ")
	theirs, _, _ = strings.Cut(theirs, " at ")
	return ours == theirs
}
