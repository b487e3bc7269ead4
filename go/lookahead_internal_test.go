package taskspec

import "testing"

func TestFlowRootKeyFindsTheColonLibyamlReadsAsAValue(t *testing.T) {
	for rest, want := range map[string]int{
		"p: 1":       1,
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
	} {
		if got := flowRootKey([]byte(rest)); got != want {
			t.Errorf("flowRootKey(%q) = %d, want %d", rest, got, want)
		}
	}
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
