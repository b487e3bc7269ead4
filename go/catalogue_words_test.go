package taskspec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	forms "github.com/taskspec/taskspec/go/internal/catalogue"
)

// pendingWords are the files that still write out some of the catalogue's
// words, with how many pieces each. The read path (decode.go,
// stricter_reads.go, internal/walk, internal/yamlrules, internal/budget,
// internal/yamlscan and internal/yaml) is
// pending: its messages are converted once the new reader replaces it.
// The list only shrinks.
var pendingWords = map[string]int{
	"decode.go":                       5,
	"internal/yamlrules/flow.go":      3,
	"internal/budget/budget.go":       2,
	"internal/walk/walk.go":           22,
	"internal/yaml/compose.go":        2,
	"internal/yamlrules/documents.go": 4,
	"internal/yamlrules/misreads.go":  4,
	"internal/yamlrules/tags.go":      3,
	"problems.go":                     2,
	// Marshal's error for a string that is not UTF-8, which is not a
	// problem of a document: "marshal task spec: PATH: string is not
	// valid UTF-8".
	"formats.go": 1,
	"marshal.go": 1,
}

var argument = regexp.MustCompile(`\{[a-z0-9_]+\}`)

// formWords are the pieces of every form of the catalogue between its
// arguments, long enough to be a sentence's.
func formWords() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range forms.All {
		for _, piece := range argument.Split(f.Text, -1) {
			piece = strings.TrimSpace(piece)
			if len(piece) >= 18 && strings.Contains(piece, " ") && !seen[piece] {
				seen[piece] = true
				out = append(out, piece)
			}
		}
	}
	return out
}

// No hand-written file of the module holds a form's words: they are
// rendered from the catalogue (internal/catalogue), so that a rewording is
// one edit to problems.proto.
func TestNoFileWritesOutTheCataloguesWords(t *testing.T) {
	words := formWords()
	if len(words) < 100 {
		t.Fatalf("%d pieces of forms", len(words))
	}
	found := map[string]int{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "testdata" || path == "taskspecgrpc" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") ||
			strings.HasPrefix(path, "internal/eval/") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, w := range words {
				if strings.Contains(text, w) {
					found[filepath.ToSlash(path)]++
					if testing.Verbose() {
						t.Logf("%s: %q", path, w)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, n := range found {
		if n > pendingWords[path] {
			t.Errorf("%s writes out %d pieces of the catalogue's forms (%d pending): render them from internal/catalogue", path, n, pendingWords[path])
		}
	}
	for path, n := range pendingWords {
		if n > 0 && found[path] == 0 {
			t.Errorf("%s no longer writes out the catalogue's words: take it off pendingWords", path)
		}
	}
}

// Explain lists a code's reasons, in the catalogue's order, after its hints.
func TestExplainListsAKindsReasons(t *testing.T) {
	text, _ := Explain(CodeBinarySyntax)
	var want strings.Builder
	for _, f := range forms.All {
		if f.Code == string(CodeBinarySyntax) && f.Kind == forms.Reason {
			want.WriteString("    " + f.Text + "\n")
		}
	}
	if want.Len() == 0 || !strings.Contains(text, "\nReasons:\n"+want.String()+"\n") {
		t.Errorf("Explain(TS021) = %q, want its reasons %q", text, want.String())
	}
	if text, _ := Explain(CodeCannotStartValue); strings.Contains(text, "Reasons:") {
		t.Errorf("Explain(TS011) lists reasons: %q", text)
	}
}
