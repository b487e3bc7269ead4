package taskspec_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// validDoc is a valid document, to break in one place at a time.
const validDoc = `task_spec_version: 1
task_id: t-1
language: go
difficulty: easy
generated_from:
  kind: kg_template
prompt: Fix it.
verification:
  test_cmd: [go test ./...]
  timeout_seconds: 60
`

func render(vs []taskspec.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%s %s %s %s", v.Code, v.Severity, v.FieldPath, v)
	}
	return out
}

func checkWant(t *testing.T, doc string, want ...string) {
	t.Helper()
	got := render(taskspec.Check([]byte(doc)))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check(%q) =\n  %s\nwant\n  %s", doc, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestCheckOfAValidDocumentIsEmpty(t *testing.T) {
	if vs := taskspec.Check([]byte(validDoc)); vs != nil {
		t.Errorf("got %v", vs)
	}
}

func TestCheckReportsEveryDecodeProblemThenTheRulesOfWhatWasRead(t *testing.T) {
	doc := strings.Replace(validDoc, "task_id: t-1\n", "taskid: t-1\ntimeout_secs: 3\n", 1)
	doc = strings.Replace(doc, "difficulty: easy", "difficulty: [easy]", 1)
	doc = strings.Replace(doc, "timeout_seconds: 60", "timeout_seconds: -1\n  timeout_seconds: 2", 1)
	checkWant(t, doc,
		`TS001 error taskid line 2, column 1: taskid: unknown field "taskid"; did you mean "task_id"?`,
		`TS001 error timeout_secs line 3, column 1: timeout_secs: unknown field "timeout_secs"; expected one of: `+topFields(),
		`TS003 error difficulty line 5, column 13: difficulty: expected a string, got a sequence; a value that starts with "[" must be quoted, or written as a block scalar (|)`,
		`TS002 error verification.timeout_seconds line 12, column 3: verification.timeout_seconds: duplicate key "timeout_seconds" (first defined at line 11)`,
		`TS104 error verification.timeout_seconds line 11, column 20: verification.timeout_seconds must be non-negative, got -1`,
	)
	_, err := taskspec.ParseYAML([]byte(doc))
	var de *taskspec.DecodeError
	if !errors.As(err, &de) || len(de.Violations) != 5 || de.Code != "TS001" || de.FieldPath != "taskid" ||
		err.Error() != `taskspec: decode task spec: line 2, column 1: taskid: unknown field "taskid"; did you mean "task_id"? (and 4 more problems)` {
		t.Errorf("ParseYAML = %#v", err)
	}
}

func TestOneMistakeGivesOneProblem(t *testing.T) {
	// A misspelt section hides the rules of the field it names and below.
	checkWant(t, strings.Replace(validDoc, "generated_from:", "generated_frm:", 1),
		`TS001 error generated_frm line 5, column 1: generated_frm: unknown field "generated_frm"; did you mean "generated_from"?`)
	checkWant(t, strings.Replace(validDoc, "verification:", "verifcation:", 1),
		`TS001 error verifcation line 8, column 1: verifcation: unknown field "verifcation"; did you mean "verification"?`)
	// A value that cannot be read hides its own rule.
	checkWant(t, strings.Replace(validDoc, "task_id: t-1", "task_id: {a: 1}", 1),
		`TS003 error task_id line 2, column 10: task_id: expected a string, got a mapping; a value that starts with "{" must be quoted, or written as a block scalar (|)`)
	// A missing key is placed at the mapping that lacks it, and says so.
	checkWant(t, strings.Replace(validDoc, "language: go\n", "", 1),
		`TS103 error language line 1, column 1: invalid language ""; key "language" is missing`)
	checkWant(t, strings.Replace(validDoc, "  test_cmd: [go test ./...]\n", "", 1),
		`TS102 error verification.test_cmd line 9, column 3: verification.test_cmd is required`)
}

func TestCheckWarnsOfPathsAndRawLineBreaks(t *testing.T) {
	doc := validDoc + "solution_artifacts:\n  - path: /etc/passwd\n"
	checkWant(t, doc, `TS301 warning solution_artifacts[0].path line 12, column 11: artifact path "/etc/passwd" is not allowed: the path is absolute: artifact paths are relative to the workspace`)
	if _, err := taskspec.ParseYAML([]byte(doc)); err != nil {
		t.Errorf("a warning refused the document: %v", err)
	}
	// Warnings are reported beside errors: no problem hides another.
	checkWant(t, strings.Replace(doc, "timeout_seconds: 60", "timeout_seconds: -5", 1),
		`TS104 error verification.timeout_seconds line 10, column 20: verification.timeout_seconds must be non-negative, got -5`,
		`TS301 warning solution_artifacts[0].path line 12, column 11: artifact path "/etc/passwd" is not allowed: the path is absolute: artifact paths are relative to the workspace`)
	checkWant(t, strings.Replace(validDoc, "Fix it.", "\"Fix\u2028it\u0085 now\u2028.\"", 1),
		`TS302 warning prompt line 7, column 13: prompt: a raw LINE SEPARATOR (U+2028) in the text is a line break to YAML 1.1 readers; write it as an escape in a double-quoted string ("\L"), or remove it`,
		`TS302 warning prompt line 7, column 16: prompt: a raw NEL (U+0085) in the text is a line break to YAML 1.1 readers; write it as an escape in a double-quoted string ("\N"), or remove it`,
		`TS302 warning prompt line 7, column 21: prompt: a raw LINE SEPARATOR (U+2028) in the text is a line break to YAML 1.1 readers; write it as an escape in a double-quoted string ("\L"), or remove it`)
	checkWant(t, "# \u0085\n"+validDoc,
		`TS302 warning  line 1, column 3: a raw NEL (U+0085) in the text is a line break to YAML 1.1 readers; write it as an escape in a double-quoted string ("\N"), or remove it`)
}

func TestCheckGivesSyntaxCodesAndPromptHints(t *testing.T) {
	for doc, want := range map[string]string{
		"prompt: `go test` fails\n":                              "TS011 line 1, column 9: invalid YAML: a character here cannot start a value; a value that starts with \"`\" must be quoted, or written as a block scalar (|)",
		"prompt: @user fix it\n":                                 `TS011 line 1, column 9: invalid YAML: a character here cannot start a value; a value that starts with "@" must be quoted, or written as a block scalar (|)`,
		"prompt: fix: the bug\n":                                 `TS014 line 1, column 12: invalid YAML: a mapping value is not allowed here; a value that holds ': ' must be quoted, or written as a block scalar (|)`,
		"task_id: t\n  prompt: p\n":                              `TS014 line 2, column 9: invalid YAML: a mapping value is not allowed here; check the indentation of this key: it is deeper than its siblings`,
		"prompt: \"open\n":                                       `TS012 line 2, column 1: invalid YAML: a quoted value is not closed; close the quote; inside "..." write \" for a quote, inside '...' write ''`,
		"task_id: [a, b\n":                                       `TS013 line 2, column 1: invalid YAML: a [ list is not closed with ]; close it, or quote the value if the bracket is text`,
		"prompt: \"a\\qb\"\n":                                    `TS016 line 1, column 11: invalid YAML: unknown escape in a double-quoted value; write \\ for a backslash, or use single quotes, where a backslash is itself`,
		"task_id: t\nprompt: *nope\n":                            `TS019 line 2, column 9: invalid YAML: an alias (*name) names no anchor; a value that starts with "*" must be quoted, or written as a block scalar (|)`,
		"task_id: t\n\tprompt: p\n":                              `TS010 line 2, column 1: invalid YAML: a tab character cannot indent YAML; replace the tab with spaces`,
		"task_id: \"a\x07\"\n":                                   `TS008 line 1, column 12: invalid YAML: control characters are not allowed (character #x0007)`,
		"task_id: t1\nprompt: wait\u2028then go\nlanguage: go\n": `TS009 line 2, column 13: invalid YAML: a raw LINE SEPARATOR (U+2028) breaks the line here, and what follows it cannot be read; write it as "\u2028" inside double quotes, or remove it`,
		"task_id: t\nprompt: |0\n  x\n":                          `TS017 line 2, column 10: invalid YAML: a block scalar's indentation indicator must be 1 to 9; a value that starts with "|" must be quoted, or written as a block scalar (|)`,
	} {
		vs := taskspec.Check([]byte(doc))
		if len(vs) != 1 {
			t.Errorf("%q: %v", doc, vs)
			continue
		}
		if got := string(vs[0].Code) + " " + vs[0].String(); got != want {
			t.Errorf("%q:\n got %s\nwant %s", doc, got, want)
		}
		for _, phrase := range []string{"yaml:", "while scanning", "while parsing", "did not find", "found "} {
			if strings.Contains(vs[0].Message, phrase) {
				t.Errorf("%q: yaml.v3's words in %q", doc, vs[0].Message)
			}
		}
	}
}

func TestCheckOfTheDocumentAsAWhole(t *testing.T) {
	checkWant(t, "", `TS003 error  empty document: expected a TaskSpec mapping`)
	checkWant(t, "- a\n", `TS003 error  line 1, column 1: expected a mapping at the top of the document, got a sequence`)
	checkWant(t, "task_id: t\n---\ntask_id: u\n",
		`TS004 error  line 2, column 1: more than one YAML document: the Go package reads the first and ignores the rest silently`)
	checkWant(t, "task_id: \xff\n", `TS007 error  line 1, column 10: input is not valid UTF-8 (byte 0xff at offset 9)`)
}

func TestValidateRefusesStringsThatAreNotUTF8(t *testing.T) {
	spec := validSpec()
	spec.Prompt = "caf\xe9"
	spec.Verification.TestCmd = append(spec.Verification.TestCmd, "\xff")
	spec.DifficultySignals = map[string]int64{"\xfe": 1}
	err := taskspec.Validate(spec)
	var verr *taskspec.ValidationError
	if !errors.As(err, &verr) || err.Error() != `taskspec: difficulty_signals["\xfe"] is not valid UTF-8 (and 2 more problems)` {
		t.Fatalf("got %v", err)
	}
	var got []string
	for _, v := range verr.Violations {
		got = append(got, string(v.Code)+" "+v.FieldPath+": "+v.Message)
	}
	want := []string{
		`TS106 difficulty_signals["\xfe"]: difficulty_signals["\xfe"] is not valid UTF-8`,
		"TS106 prompt: prompt is not valid UTF-8",
		"TS106 verification.test_cmd[2]: verification.test_cmd[2] is not valid UTF-8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q", got)
	}
	// The Go package's rules come first: their message stays the error's.
	spec.TaskId = ""
	if err := taskspec.Validate(spec); err == nil || err.Error() != "taskspec: task_id is required (and 3 more problems)" {
		t.Errorf("got %v", err)
	}
}

func TestValidateRefusesASpecTooLargeToWrite(t *testing.T) {
	spec := validSpec()
	// Under the limit as text, over it as canonical YAML: every byte a
	// control character, escaped in four.
	spec.Prompt = strings.Repeat("\x01", taskspec.MaxDocumentBytes/4+10)
	err := taskspec.Validate(spec)
	var verr *taskspec.ValidationError
	if !errors.As(err, &verr) || len(verr.Violations) != 1 || verr.Violations[0].Code != "TS107" ||
		verr.Violations[0].FieldPath != "" ||
		!strings.HasSuffix(err.Error(), "bytes, more than the limit of 16777216") ||
		!strings.HasPrefix(err.Error(), "taskspec: task spec is too large: its canonical YAML is ") {
		t.Fatalf("got %v", err)
	}
	spec.Prompt = strings.Repeat("x", 1<<20)
	if err := taskspec.Validate(spec); err != nil {
		t.Errorf("a 1 MiB prompt: %v", err)
	}
}

func TestZeroValuesArePrintable(t *testing.T) {
	if got := (&taskspec.DecodeError{}).Error(); got != "taskspec: decode task spec: the document cannot be read" {
		t.Errorf("zero DecodeError: %q", got)
	}
	if got := (&taskspec.DecodeError{FieldPath: "x", Line: 2, Column: 3, Code: "TS003"}).Error(); !strings.HasPrefix(got, "taskspec: decode task spec: line 2, column 3") {
		t.Errorf("DecodeError without Violations: %q", got)
	}
	if got := (taskspec.Violation{}).String(); got != "" {
		t.Errorf("zero Violation: %q", got)
	}
	if p := (taskspec.Violation{}).Proto(); p.GetSeverity() != taskspecv1.Severity_SEVERITY_ERROR {
		t.Errorf("zero Violation's Problem: %v", p)
	}
	if v := taskspec.ViolationFromProto(nil); v != (taskspec.Violation{}) {
		t.Errorf("ViolationFromProto(nil) = %+v", v)
	}
	if got := (&taskspec.ValidationError{}).Error(); got != "taskspec: invalid task spec" {
		t.Errorf("zero ValidationError: %q", got)
	}
}

func TestProblemsRoundTripThroughTheProto(t *testing.T) {
	for _, v := range taskspec.Check([]byte(validDoc + "solution_artifacts:\n  - path: ../x\nbogus: 1\n")) {
		if back := taskspec.ViolationFromProto(v.Proto()); back != v {
			t.Errorf("%+v came back as %+v", v, back)
		}
	}
}

func TestEveryCodeIsInTheCatalogue(t *testing.T) {
	codes := taskspec.Codes()
	if len(codes) < 30 {
		t.Fatalf("only %d codes", len(codes))
	}
	for _, c := range codes {
		k, ok := taskspec.LookupProblem(c)
		text, ok2 := taskspec.Explain(c)
		if !ok || !ok2 || k.Title == "" || len(k.Messages) == 0 || (k.Severity != "error" && k.Severity != "warning") ||
			!strings.HasPrefix(text, string(c)+" ("+k.Name+"): "+k.Title+"\n") {
			t.Errorf("%s: %+v", c, k)
		}
	}
	if _, ok := taskspec.Explain("TS000"); ok {
		t.Error("TS000 explained")
	}
}

// topFields is the hint's list of TaskSpec's fields, from the descriptor,
// so that a field added to the proto changes no test.
func topFields() string {
	fields := (&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor().Fields()
	names := make([]string, fields.Len())
	for i := range names {
		names[i] = string(fields.Get(i).Name())
	}
	return strings.Join(names, ", ")
}
