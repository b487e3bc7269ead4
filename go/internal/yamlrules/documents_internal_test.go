package yamlrules

import "testing"

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
