package taskspec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fixCase is one case of tests/contract/fixes.json, which the Python suite
// reads too.
type fixCase struct {
	Name       string      `json:"name"`
	Text       string      `json:"text"`
	Fixes      []fixRecord `json:"fixes"`
	Fixed      string      `json:"fixed"`
	ValidAfter bool        `json:"valid_after"`
}

type fixRecord struct {
	Code      Code   `json:"code"`
	FieldPath string `json:"field_path"`
	Fix
}

func loadFixTable(t *testing.T) []fixCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "tests", "contract", "fixes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []fixCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 10 {
		t.Fatalf("the fix table has %d cases, want at least 10", len(table.Cases))
	}
	return table.Cases
}

// TestCheckGivesTheSharedTablesFixes: each document's problems carry the
// fixes the table lists, in order, and ApplyFixes writes them in to give
// the table's fixed text, which is valid where the table says so.
func TestCheckGivesTheSharedTablesFixes(t *testing.T) {
	for _, c := range loadFixTable(t) {
		t.Run(c.Name, func(t *testing.T) {
			problems := Check([]byte(c.Text))
			got := []fixRecord{}
			for _, v := range problems {
				if v.Fix != nil {
					got = append(got, fixRecord{v.Code, v.FieldPath, *v.Fix})
				}
			}
			want := c.Fixes
			if want == nil {
				want = []fixRecord{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fixes\ngot  %+v\nwant %+v", got, want)
			}
			fixed := string(ApplyFixes([]byte(c.Text), problems))
			if fixed != c.Fixed {
				t.Errorf("ApplyFixes\ngot  %q\nwant %q", fixed, c.Fixed)
			}
			errors := 0
			for _, v := range Check([]byte(fixed)) {
				if v.Severity != SeverityWarning {
					errors++
				}
			}
			if (errors == 0) != c.ValidAfter {
				t.Errorf("after the fixes, %d errors; valid_after is %v", errors, c.ValidAfter)
			}
		})
	}
}

// TestEachFixOfTheProblemTableRemovesItsProblem: in every document of the
// shared problem table, a fix applied alone removes the problem it fixes
// and adds none: the document has one problem fewer, or as many when the
// fixed key lets a rule it hid be checked.
func TestEachFixOfTheProblemTableRemovesItsProblem(t *testing.T) {
	fixes := 0
	for _, c := range loadProblemTable(t) {
		if c.Format != "yaml" {
			continue
		}
		data := c.document(t)
		problems := Check(data)
		for _, v := range problems {
			if v.Fix == nil {
				continue
			}
			fixes++
			after := Check(ApplyFixes(data, []Violation{v}))
			if len(after) > len(problems) {
				t.Errorf("%s: the fix of %v gives %d problems, from %d: %v", c.Name, v, len(after), len(problems), after)
			}
			for _, a := range after {
				if a.Code == v.Code && a.Message == v.Message && a.Line == v.Line {
					t.Errorf("%s: the fix of %v leaves it: %v", c.Name, v, a)
				}
			}
		}
	}
	if fixes < 20 {
		t.Errorf("the problem table holds %d fixes, want at least 20", fixes)
	}
}

// TestApplyFixesWritesEachFixInItsSpanAlone: a fix replaces its span and
// nothing else; of two fixes that overlap, the one later in the text is
// written; a fix outside the text is passed over. The Python library's
// apply_fixes is held to the same cases (tests/test_fixes.py).
func TestApplyFixesWritesEachFixInItsSpanAlone(t *testing.T) {
	text := []byte("task_id: t1\nlanguag: go\n")
	problems := Check(text)
	var own Violation
	for _, v := range problems {
		if v.Fix != nil {
			own = v
		}
	}
	if want := (Fix{Text: "language", StartLine: 2, StartColumn: 1, EndLine: 2, EndColumn: 8}); own.Fix == nil || *own.Fix != want {
		t.Fatalf("the fix is %+v, want %+v", own.Fix, want)
	}
	for _, c := range []struct {
		fixes []Fix
		want  string
	}{
		{[]Fix{{"X", 1, 1, 1, 3}}, "Xsk_id: t1\nlanguag: go\n"},
		{[]Fix{*own.Fix, {"Y", 2, 3, 2, 6}}, "task_id: t1\nlaYag: go\n"},
		{[]Fix{{"Z", 9, 1, 9, 2}}, string(text)},
		{[]Fix{{"Z", 1, 20, 1, 21}}, string(text)},
	} {
		var vs []Violation
		for _, f := range c.fixes {
			vs = append(vs, Violation{Fix: &f})
		}
		if got := string(ApplyFixes(text, vs)); got != c.want {
			t.Errorf("ApplyFixes(%+v) = %q, want %q", c.fixes, got, c.want)
		}
	}
}
