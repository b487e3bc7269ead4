package taskspec_test

import (
	"fmt"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// Check lists every problem of a document at once: here a misspelt key, an
// enum that is not one of its values, a negative timeout and an artifact
// path that leaves the workspace (a warning).
func ExampleCheck() {
	doc := `task_spec_version: 1
task_id: t-1
language: golang
difficulty: easy
generated_frm:
  kind: kg_template
prompt: Fix it.
solution_artifacts:
  - path: ../../etc/passwd
verification:
  test_cmd: [go test ./...]
  timeout_seconds: -1
`
	for _, p := range taskspec.Check([]byte(doc)) {
		fmt.Printf("%s %s %s\n", p.Code, p.Severity, p)
	}
	// Output:
	// TS001 error line 5, column 1: generated_frm: unknown field "generated_frm"; did you mean "generated_from"?
	// TS103 error line 3, column 11: invalid language "golang"; did you mean "go"?
	// TS104 error line 12, column 20: verification.timeout_seconds must be non-negative, got -1
	// TS301 warning line 9, column 11: artifact path "../../etc/passwd" is not allowed: the path climbs out of the workspace with ..
}

// A prompt that starts with a backtick is a YAML syntax error; the hint
// names the fix.
func ExampleCheck_promptMistake() {
	for _, p := range taskspec.Check([]byte("prompt: `go test` fails\n")) {
		fmt.Println(p.Code, p.Message)
		fmt.Println(p.Hint)
	}
	// Output:
	// TS011 invalid YAML: a character here cannot start a value
	// a value that starts with "`" must be quoted, or written as a block scalar (|)
}

// CheckFormat reads JSON and binary protobuf too: the problem that refuses
// the document, or the broken rules and warnings of the spec it holds.
func ExampleCheckFormat() {
	for _, p := range taskspec.CheckFormat([]byte(`{"taskId": "t-1",}`), taskspec.JSON) {
		fmt.Println(p.Code, p)
	}
	// Output:
	// TS020 line 1, column 18: invalid JSON: expected a property name in double quotes
}

// Every code of the catalogue is a constant of type Code, generated from
// the protos, so that a caller tests a problem's kind by name; a warning
// has SeverityWarning.
func ExampleCode() {
	doc := `task_spec_version: 1
task_id: t-1
language: go
difficulty: easy
generated_from: {kind: kg_template}
promt: Fix it.
verification: {test_cmd: [go test ./...]}
`
	for _, p := range taskspec.Check([]byte(doc)) {
		switch {
		case p.Code == taskspec.CodeUnknownKey:
			fmt.Println("unknown key:", p.FieldPath, p.Hint)
		case p.Severity == taskspec.SeverityWarning:
			fmt.Println("warning:", p)
		case p.Severity == taskspec.SeverityError:
			fmt.Println(p.Code, p.Message)
		}
	}
	// Output:
	// unknown key: promt did you mean "prompt"?
}

// A Severity says whether a problem refuses the document: an artifact path
// that leaves the workspace is reported, and the document is still read.
func ExampleSeverity() {
	doc := `task_spec_version: 1
task_id: t-1
language: go
difficulty: easy
generated_from: {kind: kg_template}
prompt: Fix it.
solution_artifacts: [{path: ../x.go}]
verification: {test_cmd: [go test ./...]}
`
	for _, p := range taskspec.Check([]byte(doc)) {
		fmt.Println(p.Severity == taskspec.SeverityWarning, p.Code == taskspec.CodeArtifactPath)
	}
	_, err := taskspec.ParseYAML([]byte(doc))
	fmt.Println(err)
	// Output:
	// true true
	// <nil>
}

// LookupProblem gives a code's entry in the catalogue.
func ExampleLookupProblem() {
	k, ok := taskspec.LookupProblem("TS001")
	fmt.Println(ok, k.Name, "-", k.Title, "-", k.Severity, k.Stage)
	_, ok = taskspec.LookupProblem("TS000")
	fmt.Println(ok)
	// Output:
	// true unknown_key - unknown key - error decode
	// false
}

// Kind is one entry of the catalogue.
func ExampleKind() {
	k, _ := taskspec.LookupProblem("ts302")
	fmt.Println(k.Code, k.Severity, k.Messages[0])
	// Output:
	// TS302 warning {path}: a raw {what} in the text is a line break to YAML 1.1 readers
}

// Codes lists the catalogue in numeric order.
func ExampleCodes() {
	codes := taskspec.Codes()
	fmt.Println(codes[0], codes[len(codes)-1])
	// Output:
	// TS001 TS999
}

// Explain is the text `taskspec explain CODE` prints.
func ExampleExplain() {
	text, ok := taskspec.Explain("TS010")
	fmt.Println(ok, strings.SplitN(text, "\n", 2)[0])
	// Output:
	// true TS010 (tab_indent): tab that indents
}

// Proto gives a problem the shape it has in CLI JSON and gRPC errors.
func ExampleViolation_Proto() {
	p := taskspec.Check([]byte("task_id: [a]\n"))[0].Proto()
	fmt.Println(p.GetCode(), p.GetFieldPath(), p.GetLine(), p.GetColumn(), p.GetSeverity())
	// Output:
	// TS003 task_id 1 10 SEVERITY_ERROR
}

// ViolationFromProto reads a problem back.
func ExampleViolationFromProto() {
	v := taskspec.ViolationFromProto(&taskspecv1.Problem{Code: "TS101", FieldPath: "task_id",
		Message: "task_id is required", Line: 2, Column: 1, Hint: `key "task_id" is missing`})
	fmt.Println(v.Severity, v)
	// Output:
	// error line 2, column 1: task_id is required; key "task_id" is missing
}
