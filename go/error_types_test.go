package taskspec_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

const validYAML = `task_spec_version: 1
task_id: t-1
language: go
difficulty: easy
generated_from:
  kind: kg_template
prompt: Fix it.
verification:
  test_cmd: [go test ./...]
`

const validJSON = `{"taskSpecVersion": 1, "taskId": "t-1", "language": "LANGUAGE_GO", "difficulty": "DIFFICULTY_EASY",` +
	` "generatedFrom": {"kind": "GENERATED_KIND_KG_TEMPLATE"}, "prompt": "Fix it.",` +
	` "verification": {"testCmd": ["go test ./..."]}}`

// One mistake finds the same error type whatever else is wrong with the
// document: a decode problem (an unknown key, a duplicate key, a syntax
// error) a *DecodeError, a broken rule (a bad language, a missing task_id)
// a *ValidationError, both when the document has both. Every error starts
// with "taskspec: " and counts the problems it does not show.
func TestOneMistakeFindsOneErrorTypeWhateverElseIsWrong(t *testing.T) {
	yaml := func(edits ...string) []byte {
		doc := validYAML
		for i := 0; i < len(edits); i += 2 {
			if !strings.Contains(doc, edits[i]) {
				t.Fatalf("no %q in the document", edits[i])
			}
			doc = strings.Replace(doc, edits[i], edits[i+1], 1)
		}
		return []byte(doc)
	}
	json := func(edits ...string) []byte {
		doc := validJSON
		for i := 0; i < len(edits); i += 2 {
			if !strings.Contains(doc, edits[i]) {
				t.Fatalf("no %q in the document", edits[i])
			}
			doc = strings.Replace(doc, edits[i], edits[i+1], 1)
		}
		return []byte(doc)
	}
	const (
		badLanguage   = "language: go\n"
		typo          = "prompt:"
		badLanguageTo = "language: cobol\n"
		typoTo        = "promt: x\nprompt:"
	)
	for _, tc := range []struct {
		name               string
		format             taskspec.Format
		data               []byte
		decode, validation bool
		firstCode          taskspec.Code
	}{
		{"bad language alone", taskspec.YAML, yaml(badLanguage, badLanguageTo), false, true, taskspec.CodeDefined},
		{"typo alone", taskspec.YAML, yaml(typo, typoTo), true, false, taskspec.CodeUnknownKey},
		{"typo and bad language", taskspec.YAML, yaml(badLanguage, badLanguageTo, typo, typoTo), true, true, taskspec.CodeUnknownKey},
		{"missing task_id and a duplicate key", taskspec.YAML, yaml("task_id: t-1\n", "", "difficulty: easy\n", "difficulty: easy\ndifficulty: hard\n"),
			true, true, taskspec.CodeDuplicateKey},
		{"value of the wrong type and a negative timeout", taskspec.YAML,
			yaml("task_spec_version: 1", "task_spec_version: [1]", "test_cmd: [go test ./...]", "test_cmd: [go test ./...]\n  timeout_seconds: -1"),
			true, true, taskspec.CodeWrongType},
		{"syntax error and bad language", taskspec.YAML, yaml(badLanguage, badLanguageTo, "prompt: Fix it.", `prompt: "Fix it.`),
			true, false, taskspec.CodeUnclosedQuote},
		{"JSON bad language alone", taskspec.JSON, json(`"LANGUAGE_GO"`, `7`), false, true, taskspec.CodeDefined},
		{"JSON typo alone", taskspec.JSON, json(`"prompt"`, `"promt": "x", "prompt"`), true, false, taskspec.CodeUnknownKey},
		{"JSON typo and bad language", taskspec.JSON, json(`"LANGUAGE_GO"`, `7`, `"prompt"`, `"promt": "x", "prompt"`),
			true, true, taskspec.CodeUnknownKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := taskspec.Parse(tc.data, tc.format)
			if err == nil {
				t.Fatal("accepted")
			}
			var de *taskspec.DecodeError
			var ve *taskspec.ValidationError
			gotDecode, gotValidation := errors.As(err, &de), errors.As(err, &ve)
			if gotDecode != tc.decode || gotValidation != tc.validation {
				t.Fatalf("errors.As finds a DecodeError %v and a ValidationError %v, want %v and %v: %v",
					gotDecode, gotValidation, tc.decode, tc.validation, err)
			}
			problems := taskspec.CheckFormat(tc.data, tc.format)
			var held []taskspec.Violation
			if gotDecode {
				held = de.Violations
			} else {
				held = ve.Violations
			}
			if gotValidation {
				if len(ve.Violations) != len(held) || !hasRule(ve.Violations) {
					t.Errorf("the ValidationError holds %v, the error %v", ve.Violations, held)
				}
			}
			if len(held) != len(problems) || held[0].Code != tc.firstCode {
				t.Errorf("the error holds %v, CheckFormat lists %v", held, problems)
			}
			text := err.Error()
			more := moreProblems(len(held) - 1)
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
