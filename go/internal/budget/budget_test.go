package budget

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The scan before parsing and the count after it find the same first node
// past a bound, at the same place.
func TestTheScanAndTheCountFindTheSameNode(t *testing.T) {
	l := Limits{Nodes: 2000, Depth: 4}
	for _, c := range []struct {
		text, reason string
		line, column int
	}{
		{"a: [[[[[x]]]]]\n" + strings.Repeat("#", 1100), "document is nested deeper than 4 levels", 1, 7},
		{"[" + strings.Repeat("x, ", 2500) + "x]", "document has more than 2000 nodes", 1, 2 + 3*1999},
	} {
		before := Check([]byte(c.text), nil, l)
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.text), &doc); err != nil {
			t.Fatal(err)
		}
		after := Check([]byte(c.text), &doc, l)
		for _, o := range []*Over{before, after} {
			if o == nil || o.Reason != c.reason || o.Line != c.line || o.Column != c.column {
				t.Errorf("%.20q: %+v, want %s at %d:%d", c.text, o, c.reason, c.line, c.column)
			}
		}
		if after != nil && after.Tree != &doc {
			t.Errorf("%.20q: the tree is not the document's", c.text)
		}
	}
}

// A document too small to be over a bound is not looked at.
func TestASmallDocumentIsNotLookedAt(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("[[[[[x]]]]]"), &doc); err != nil {
		t.Fatal(err)
	}
	if o := Check([]byte("[[[[[x]]]]]"), &doc, Limits{Nodes: 100, Depth: 4}); o != nil {
		t.Errorf("%+v, want nil", o)
	}
}
