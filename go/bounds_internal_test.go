package taskspec

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
