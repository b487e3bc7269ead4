package taskspec_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

type errorTypeCase struct {
	Name       string        `json:"name"`
	Format     string        `json:"format"`
	Text       string        `json:"text"`
	Decode     bool          `json:"decode"`
	Validation bool          `json:"validation"`
	FirstCode  taskspec.Code `json:"first_code"`
}

// One mistake finds the same error type whatever else is wrong with the
// document (tests/contract/error_types.json, which the Python tests read
// too): a decode problem (an unknown key, a duplicate key, a syntax error)
// a *DecodeError, a broken rule (a bad language, a missing task_id) a
// *ValidationError, both when the document has both. The error holds every
// problem CheckFormat lists; its text starts with "taskspec: " and counts
// the problems it does not show.
func TestOneMistakeFindsOneErrorTypeWhateverElseIsWrong(t *testing.T) {
	var table struct {
		Cases []errorTypeCase `json:"cases"`
	}
	readContractTable(t, "error_types.json", &table)
	if len(table.Cases) < 10 {
		t.Fatalf("error_types.json has %d cases", len(table.Cases))
	}
	for _, tc := range table.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			format, err := taskspec.ParseFormat(tc.Format)
			if err != nil {
				t.Fatal(err)
			}
			data := []byte(tc.Text)
			_, err = taskspec.Parse(data, format)
			if err == nil {
				t.Fatal("accepted")
			}
			var de *taskspec.DecodeError
			var ve *taskspec.ValidationError
			gotDecode, gotValidation := errors.As(err, &de), errors.As(err, &ve)
			if gotDecode != tc.Decode || gotValidation != tc.Validation {
				t.Fatalf("errors.As finds a DecodeError %v and a ValidationError %v, want %v and %v: %v",
					gotDecode, gotValidation, tc.Decode, tc.Validation, err)
			}
			problems := taskspec.CheckFormat(data, format)
			var held []taskspec.Violation
			if gotDecode {
				held = de.Violations
			} else {
				held = ve.Violations
			}
			if gotValidation && (!reflect.DeepEqual(ve.Violations, held) || !hasRule(ve.Violations)) {
				t.Errorf("the ValidationError holds %v, the error %v", ve.Violations, held)
			}
			if len(held) != len(problems) || held[0].Code != tc.FirstCode {
				t.Errorf("the error holds %v, CheckFormat lists %v", held, problems)
			}
			text, more := err.Error(), moreProblems(len(held)-1)
			if !strings.HasPrefix(text, "taskspec: ") || !strings.HasSuffix(text, more) ||
				more == "" && strings.Contains(text, " more problem") {
				t.Errorf("Error() = %q, want the prefix and %q", text, more)
			}
		})
	}
}

// moreProblems is what an error's text adds after its first problem when
// it holds n more, in the words of the Python library's errors
// (tests/test_go_library.py compares the two texts).
func moreProblems(n int) string {
	switch {
	case n == 1:
		return " (and 1 more problem)"
	case n > 1:
		return fmt.Sprintf(" (and %d more problems)", n)
	}
	return ""
}

func hasRule(vs []taskspec.Violation) bool {
	for _, v := range vs {
		if k, ok := taskspec.LookupProblem(v.Code); ok && k.Stage == "validate" {
			return true
		}
	}
	return false
}
