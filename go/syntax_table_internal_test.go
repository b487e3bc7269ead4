package taskspec

import (
	"testing"

	forms "github.com/taskspec/taskspec/go/internal/catalogue"
)

// The parser-problem table generated from the catalogue (problem_tables
// in problems.proto) is the one syntaxProblem reads today, row for row,
// so that the read path can take it in place of its own.
func TestSyntaxTableIsTheCatalogues(t *testing.T) {
	rows := forms.YAMLv3Problems
	if len(rows) != len(syntaxTable) {
		t.Fatalf("%d rows generated, %d in syntaxTable", len(rows), len(syntaxTable))
	}
	for i, row := range syntaxTable {
		got := rows[i]
		if string(row.code) != got.Form.Code || catalogue[row.code].Messages[row.message] != got.Form.Text {
			t.Errorf("row %d: %s %q, generated %s %q", i, row.code, catalogue[row.code].Messages[row.message], got.Form.Code, got.Form.Text)
		}
		if len(row.phrases) != len(got.Phrases) {
			t.Errorf("row %d: phrases %q, generated %q", i, row.phrases, got.Phrases)
			continue
		}
		for j := range row.phrases {
			if row.phrases[j] != got.Phrases[j] {
				t.Errorf("row %d: phrases %q, generated %q", i, row.phrases, got.Phrases)
			}
		}
	}
}
