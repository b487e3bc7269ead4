package taskspec

import (
	"errors"
	"testing"

	"go.yaml.in/yaml/v3"
)

// checkOffsets checks that fn, called name, returns the offset each text
// of cases maps to.
func checkOffsets(t *testing.T, name string, fn func([]byte) int, cases map[string]int) {
	t.Helper()
	for text, want := range cases {
		if got := fn([]byte(text)); got != want {
			t.Errorf("%s(%q) = %d, want %d", name, text, got, want)
		}
	}
}

func TestFlowRootKeyFindsTheColonLibyamlReadsAsAValue(t *testing.T) {
	checkOffsets(t, "flowRootKey", flowRootKey, map[string]int{
		"p: 1":       1,
		"&a: 1":      2, // an anchor's name ends where ':' starts
		"*a : 1":     3,
		"tcu,: 1":    4, // outside [] and {}, a comma is text
		`"a,": 1`:    4,
		"[a, b]: 1":  6,
		"{a: 1}: 1":  6,
		"[a, b] : 1": 7,
		"a:b":        -1, // a colon with no blank after it is text
		", b: 1":     -1, // an entry: the collection is no key
		"] b: 1":     -1,
		"a #, b: 1":  -1, // a comment
		"#: 1":       -1,
		"| a: 1":     -1,
		"- a: 1":     -1,
		`"a`:         -1, // closed on a later line
		"a:":         1,
	})
}

func TestFoldedReadsLinesAsYAMLFoldsThem(t *testing.T) {
	// Each as the Python library's _folded reads it.
	for text, want := range map[string]string{
		"a:":                  "a:",
		"a \n  b:":            "a b:",
		"a\r\n\n\n b:":        "a\n\nb:",
		"a\xc2\x85b:":         "a b:",      // NEL breaks a line
		"a\xe2\x80\xa8b:":     "a\u2028b:", // LS does not
		"a\n \t\nb:":          "a\nb:",     // a line of blanks is empty
		"a\rb\r\nc:":          "a b c:",    // CR and CRLF each break once
		"a\n\nb\nc:":          "a\nb c:",
		"  a  \n":             "  a", // the first line keeps its start
		"a\n\n":               "a",   // trailing breaks fold to nothing
		"\n\n:":               "\n:",
		"a\xc2\x85\xc2\x85b:": "a\nb:",
		"é\n ü:":              "é ü:",
	} {
		if got := folded([]byte(text)); got != want {
			t.Errorf("folded(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestDocumentStartReadsTheLineYamlV3FoundTheSecondDocumentOn(t *testing.T) {
	for _, c := range []struct {
		err  string
		line int
		ok   bool
	}{
		{"", 7, true}, // read: the document node's own line
		{"yaml: line 3: did not find expected <document start>", 4, true}, // 0-based for a parser error
		{"yaml: did not find expected <document start>", 1, true},
		{"yaml: line 3: found duplicate %YAML directive", 0, false},
		{"yaml: line x: did not find expected <document start>", 0, false},
	} {
		var err error
		if c.err != "" {
			err = errors.New(c.err)
		}
		line, ok := documentStart(&yaml.Node{Line: 7}, err)
		if line != c.line || ok != c.ok {
			t.Errorf("documentStart(%q) = %d, %v, want %d, %v", c.err, line, ok, c.line, c.ok)
		}
	}
}

func TestDirectivesErrorReadsADirectiveBlockAsLibyaml(t *testing.T) {
	for _, c := range []struct {
		text, err string
		line      int
		ok        bool
	}{
		{"x: 1\n%YAML 1.2\n---\n", "", 2, true}, // libyaml reads 1.2
		{"x: 1\n%YAML 1.1 # c\n\n# d\n%TAG ! !a\n---", "", 2, true},
		{"x: 1\n%YAML 1.2\nx\n", "", 3, true}, // "did not find expected <document start>"
		{"x: 1\n%YAML 1.2\n...\n", "", 3, true},
		{"x: 1\n%YAML 1.2", "", 3, true}, // the end of the text starts a line
		{"x: 1\n%YAML 1.2\n", "", 3, true},
		{"x: 1\n%YAML 1.2\r\r\nx", "", 4, true}, // "\r\n" is one line break
		{"x: 1\n%YAML 1.2\n\r\nx", "", 4, true},
		{"x: 1\n%YAML 1.2\n%YAML 1.1\n---", "yaml: line 3: found duplicate %YAML directive", 0, true},
		{"x: 1\n%YAML 2.0\n---", "yaml: line 2: found incompatible YAML document", 0, true},
		{"x: 1\n%YAML 1.3\n---", "yaml: line 2: found incompatible YAML document", 0, true},
		{"x: 1\n%TAG ! !a\n%TAG !! !b\n%TAG ! !c\n---", "yaml: line 4: found duplicate %TAG directive", 0, true},
		{"x: 1\n%YAML 1\n---", "", 0, false}, // yaml.v3 fails on it as libyaml does
		{"x: 1\n%FOO\n---", "", 0, false},
	} {
		w := &walker{data: []byte(c.text)}
		line, ok, err := w.directivesError(2)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if line != c.line || got != c.err || ok != c.ok {
			t.Errorf("directivesError(%q) = %d, %q, %v, want %d, %q, %v", c.text, line, got, ok, c.line, c.err, c.ok)
		}
	}
}

func TestClosingBracketReadsTheCollectionTokenByToken(t *testing.T) {
	closing := func(data []byte) int { return closingBracket(data, 0) }
	checkOffsets(t, "closingBracket", closing, map[string]int{
		"{}":                 2,
		"&a !t [a, [b]] x":   14,
		"[it's, b] c'":       9,  // a quote inside a plain scalar opens nothing
		"{a: -2 b:' c}, d'}": 13, // nor after a ':' with no blank after it
		"{a: 'b}', c}":       12, // a quoted scalar is skipped
		"[a\"b]":             5,
		"['a'#c]\n]":         9, // a comment right after a quoted scalar
		"[a#b]":              5, // a '#' inside a plain scalar is text
		"[a #b]\n]":          8, // after a blank, a comment
		"[a #b\xc2\x85]":     8, // which NEL ends
		"[a":                 -1,
	})
}

func TestBlockScalarErrorIsWhatLibyamlScansTheBlockScalarWith(t *testing.T) {
	for text, want := range map[string]string{
		"|\n  a\n":         "",
		"|-2\n  a\n \tb\n": "eval: decode task spec: line 3: invalid YAML: a tab character cannot indent YAML",
		"|\n  a\n\tb\n":    "eval: decode task spec: line 3: invalid YAML: a tab character cannot indent YAML",
		"|\n\n \t\n":       "eval: decode task spec: line 3: invalid YAML: a tab character cannot indent YAML",
		"|\n  a\n   \tb\n": "", // past the indentation, a tab is text
		"|\n  a\nb\n\tc":   "", // the scalar ended at "b"
		"|0\n":             "yaml: line 1: while scanning a block scalar, found an indentation indicator equal to 0",
		"|+0\n":            "yaml: line 1: while scanning a block scalar, found an indentation indicator equal to 0",
		"|x\n":             "yaml: line 1: while scanning a block scalar, did not find expected comment or line break",
		"|--\n":            "yaml: line 1: while scanning a block scalar, did not find expected comment or line break",
		">2- #c\n   a\n":   "",
		"|":                "",
	} {
		w := &walker{data: []byte(text)}
		got := ""
		if err := w.blockScalarError(0); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("blockScalarError(%q) = %q, want %q", text, got, want)
		}
	}
}
