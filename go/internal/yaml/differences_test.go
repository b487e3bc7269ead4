package yaml

import (
	"fmt"
	"strings"
	"testing"
)

// TestNamedDifferences reads each named difference's input with both
// readers: they differ, and the difference is the one named. The inputs
// are the ones the doc comments give, at the routine where each arises.
func TestNamedDifferences(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	cases := map[string]string{
		"utf16":                      "\xff\xfea\x00:\x00 \x00b\x00\n\x00",
		"depth-limit":                deep,
		"flow-pair-empty-value-mark": "[a: ]",
		"block-end-mark":             "  ?\n",
		"second-document-lookahead":  "0\n--- \"",
		"escape-quote":               `"don\'t"`,
		"escape-slash":               `"a\/b"`,
		"yaml-version":               "%YAML 1.2\n--- a\n",
		"bom-at-index":               "a: 1\n\uFEFFb: 2\n",
		"nul-in-tag":                 "!a%00b x",
		"tag-uri-flow-chars":         "[!a,b]",
		"flow-colon":                 "[go, a:, b]",
		"flow-question":              "[a?b]",
		"indicator-tab":              "?\t# c\n  k\n: v\n",
		"tab-among-comments":         "a: 1\n# c\n\t# d\nb: 2\n",
	}
	for _, d := range differences {
		input, ok := cases[d.name]
		if !ok {
			t.Errorf("difference %q has no input here", d.name)
			continue
		}
		diff := compare([]byte(input))
		if diff == "" {
			t.Errorf("%s %q: the readers agree", d.name, input)
			continue
		}
		if got := classify([]byte(input), diff); got != d.name {
			t.Errorf("%s %q: %s, classified %q", d.name, input, diff, got)
		}
	}
	// "bang-tag" changes no tree: the node keeps the tag "!", which
	// yaml.v3 drops for the resolved one.
	doc, err := Parse([]byte("! 5"), Options{})
	theirs, _, v3err := readV3([]byte("! 5"), false)
	if err != nil || v3err != nil {
		t.Fatal(err, v3err)
	}
	if n := doc.Root.Content[0]; n.Tag != "!" || theirs.Content[0].Tag != IntTag {
		t.Errorf("bang-tag: our tag %q, yaml.v3's %q", n.Tag, theirs.Content[0].Tag)
	}
}

// TestYAMLv3RefusesWhereYAMLv3ReadsOtherwise: with Options.YAMLv3 the
// reader refuses at the routine where yaml.v3 parts from libyaml, with a
// DifferenceError naming the difference and yaml.v3's problem at its mark;
// without it, it reads the text as libyaml does.
func TestYAMLv3RefusesWhereYAMLv3ReadsOtherwise(t *testing.T) {
	text := []byte("k: \"a\\/b\"\n")
	doc, err := Parse(text, Options{})
	if err != nil || doc.Root.Content[0].Content[1].Value != "a/b" {
		t.Fatalf("read without YAMLv3: %v", err)
	}
	_, err = Parse(text, Options{YAMLv3: true})
	e, ok := err.(*Error)
	if !ok || e.Kind != DifferenceError || e.Difference != "escape-slash" ||
		e.Problem != "found unknown escape character" || e.ProblemMark.Column != 5 {
		t.Errorf("got %#v, want the difference escape-slash at the backslash", err)
	}
	_, err = Parse([]byte("k: [&n !a,b]\n"), Options{YAMLv3: true})
	e, ok = err.(*Error)
	if !ok || e.Kind != DifferenceError || e.Difference != "tag-uri-flow-chars" ||
		e.ContextMark.Column != 4 || e.ProblemMark.Column != 7 {
		t.Errorf("got %#v, want the difference tag-uri-flow-chars at the node and its tag", err)
	}
}

// TestNoTreeRefusesAsParseDoes: with Options.NoTree the reader gives the
// same refusal, and keeps no collection's children.
func TestNoTreeRefusesAsParseDoes(t *testing.T) {
	for _, text := range []string{"a: [1, 2\n", "a: *x\n", "a: &x [1]\nb: *x\n---\nc\n"} {
		want, werr := Parse([]byte(text), Options{})
		got, gerr := Parse([]byte(text), Options{NoTree: true})
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%q: got %v, want %v", text, gerr, werr)
		}
		if werr == nil && (*got.Next != *want.Next || len(got.Root.Content[0].Content) != 0) {
			t.Errorf("%q: got %+v, want no children and the next document at %v", text, got.Root.Content[0], want.Next)
		}
	}
}

// TestEventsReadsAnAliasToNoAnchor: with Options.Events an alias to no
// anchor, which libyaml's loader refuses, is read; a syntax error after it
// is then the refusal.
func TestEventsReadsAnAliasToNoAnchor(t *testing.T) {
	if _, err := Parse([]byte("a: *x\n"), Options{Events: true}); err != nil {
		t.Errorf("got %v", err)
	}
	_, err := Parse([]byte("a: *x\nb: c: d\n"), Options{Events: true})
	if e, ok := err.(*Error); !ok || e.Kind != ScannerError || e.ProblemMark.Line != 1 {
		t.Errorf("got %v, want the scanner's error on line 2", err)
	}
}
