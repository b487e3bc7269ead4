package yamlrules

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/source"
)

// TestSyntaxPlacesTheProblemWhereLibyamlDoes checks Syntax on yaml.v3's own
// errors: the line libyaml names, and the problem it meets first.
func TestSyntaxPlacesTheProblemWhereLibyamlDoes(t *testing.T) {
	for _, c := range []struct {
		text    string
		line    int
		problem string
	}{
		// yaml.v3 names the line the mapping starts on, libyaml the key's.
		{"a: 1\nb:\n  c: 1\n d: 2\n", 4, "did not find expected key"},
		// A tab that indents: on its line.
		{"a: 1\n\tb: 2\n", 2, "found a tab character that violates indentation"},
		// A directive no "---" follows: at the token after it.
		{"%YAML 1.1\nx\n---\na: 1\n", 2, "a directive must be followed by a document start (---)"},
		// A quoted scalar the end of the text, or a marker, meets.
		{"a: 'b\n", 2, "found unexpected end of stream"},
		{"a: 'b\n---\nc\n", 2, "found unexpected document indicator"},
	} {
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(c.text), &doc)
		if err == nil {
			t.Fatalf("%q: yaml.v3 reads it", c.text)
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			t.Fatalf("%q: %v", c.text, err)
		}
		line, problem := For(source.New([]byte(c.text)), nil).Syntax(strings.TrimPrefix(err.Error(), "yaml: "))
		if line != c.line || problem != c.problem {
			t.Errorf("%q (%v): got %d %q, want %d %q", c.text, err, line, problem, c.line, c.problem)
		}
	}
}
