package yamlrules

import (
	"math/rand"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/source"
)

// The pre-check tabThenComment holds for every text whose tabs tabs
// refuses, among texts built from the pieces such tabs are made of: it may
// skip the line-by-line look only where there is nothing to find.
func TestTabThenCommentHoldsWhereTabsRefuses(t *testing.T) {
	pieces := []string{"\t", "\t", "\t", " ", "#c", "#c", "#c", "\n", "\n", "\n", "\r", "\r\n", "\u0085",
		"- ", "? ", ": ", ":", "a", "b: 1", "'q'", "|\n", "---", "...", "[", "]", "&x ", "\u00e9"}
	rng := rand.New(rand.NewSource(1))
	refused := 0
	for range 50000 {
		var text []byte
		for range 1 + rng.Intn(12) {
			text = append(text, pieces[rng.Intn(len(pieces))]...)
		}
		var doc yaml.Node
		if yaml.Unmarshal(text, &doc) != nil {
			continue
		}
		if p := For(source.New(text), nil).tabs(&doc); p != nil {
			refused++
			if !tabThenComment(text) {
				t.Fatalf("%q: tabs refuses it (%v), but tabThenComment is false", text, p)
			}
		}
	}
	t.Logf("%d of the texts refused", refused)
	if refused < 100 {
		t.Fatalf("only %d texts refused: the pieces no longer make the tabs tabs refuses", refused)
	}
	for text, want := range map[string]bool{
		"a: |\n  \tif x {\n  \t}\n": false, // code in a block scalar
		"a: 1\t# c\n":               true,
		"#c\n\t\n":                  true,
		"? \t #c\n":                 true,
		"a:\tb\n":                   false,
	} {
		if got := tabThenComment([]byte(text)); got != want {
			t.Errorf("tabThenComment(%q) = %v, want %v", text, got, want)
		}
	}
}
