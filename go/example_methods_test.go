package taskspec_test

import (
	"errors"
	"fmt"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// The limits bound every document a reader accepts, whatever its format.
func Example_limits() {
	fmt.Println(taskspec.MaxDocumentBytes, taskspec.MaxDepth, taskspec.MaxNodes)

	deep := "prompt: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n"
	_, err := taskspec.ParseYAML([]byte(deep))
	fmt.Println(err)

	many := "difficulty_signals: {" + strings.Repeat("a: 1, ", taskspec.MaxNodes/2) + "}\n"
	_, err = taskspec.ParseYAML([]byte(many))
	fmt.Println(err)
	// Output:
	// 16777216 64 100000
	// taskspec: decode task spec: line 1, column 72: document is nested deeper than 64 levels
	// taskspec: decode task spec: line 1, column 300013: document has more than 100000 nodes
}

func ExampleViolation_String() {
	for _, v := range taskspec.Check([]byte(strings.Replace(sidecar, "prompt:", "promt:", 1))) {
		fmt.Println(v.String())
	}
	// Without a position or a hint:
	fmt.Println(taskspec.Violation{FieldPath: "prompt", Message: "prompt is required"})
	// Output:
	// line 11, column 1: promt: unknown field "promt"; did you mean "prompt"?
	// prompt is required
}

func ExampleDecodeError_Error() {
	_, err := taskspec.ParseYAML([]byte("task_spec_version: 1\nlanguage: [go\n"))
	fmt.Println(err.Error())
	_, err = taskspec.ParseJSON([]byte(`{"taskId": 7}`))
	fmt.Println(err.Error())
	// Output:
	// taskspec: decode task spec: line 3, column 1: invalid YAML: a [ list is not closed with ]; close it, or quote the value if the bracket is text
	// taskspec: task_id: expected a string, got the number 7 (and 6 more problems)
}

// A document refused on purpose unwraps to the *StrictError that says why.
func ExampleDecodeError_Unwrap() {
	_, err := taskspec.ParseYAML([]byte("task_spec_version: 1.5\n"))
	var de *taskspec.DecodeError
	if errors.As(err, &de) {
		fmt.Printf("%s %T\n", de.Code, de.Unwrap())
	}
	// Output:
	// TS003 *taskspec.StrictError
}

// One mistake finds the same error type whatever else is wrong: a bad
// language is a *ValidationError on its own, and beside a misspelt key,
// which makes the error a *DecodeError, errors.As still finds one.
func ExampleDecodeError_As() {
	doc := `task_spec_version: 1
task_id: t-1
language: cobol
difficulty: easy
generated_from: {kind: kg_template}
prompt: Fix it.
verification: {test_cmd: [go test ./...]}
`
	for _, data := range []string{doc, strings.Replace(doc, "difficulty:", "dificulty: easy\ndifficulty:", 1)} {
		_, err := taskspec.ParseYAML([]byte(data))
		var de *taskspec.DecodeError
		var ve *taskspec.ValidationError
		fmt.Println(errors.As(err, &de), errors.As(err, &ve))
		for _, v := range ve.Violations {
			if v.Code == taskspec.CodeDefined {
				fmt.Println(v.Message)
			}
		}
	}
	// Output:
	// false true
	// invalid language "cobol"
	// true true
	// invalid language "cobol"
}

func ExampleValidationError_Error() {
	err := taskspec.Validate(&taskspecv1.TaskSpec{TaskSpecVersion: taskspec.CurrentTaskSpecVersion + 1})
	fmt.Println(err.Error())
	// Output:
	// taskspec: unsupported task_spec_version 2 (this build produces v1) (and 6 more problems)
}

func ExampleStrictError_Error() {
	_, err := taskspec.ParseYAML([]byte("task_spec_version: 1\n---\ntask_id: t\n"))
	var se *taskspec.StrictError
	if errors.As(err, &se) {
		fmt.Println(se.Error())
	}
	// Output:
	// taskspec: decode task spec: line 2: more than one YAML document: the Go package reads the first and ignores the rest silently
}

func ExampleEnumError_Error() {
	err := &taskspec.EnumError{FieldPath: "difficulty", Enum: "taskspec.v1.Difficulty", Number: 9}
	fmt.Println(err.Error())
	// Output:
	// taskspec: difficulty: enum value 9 is not defined in taskspec.v1.Difficulty and cannot be written as YAML
}

func ExampleArtifactPathError_Error() {
	_, err := taskspec.ArtifactPath("/srv/task-7", "../task-8/main.go")
	fmt.Println(err.Error())
	// Output:
	// taskspec: artifact path "../task-8/main.go" is not allowed: the path climbs out of the workspace with ..
}

func ExampleWriteError_Error() {
	spec := small()
	spec.Prompt = strings.Repeat(`"`, 9<<20)
	_, err := taskspec.Convert(mustBinpb(spec), taskspec.Binpb, taskspec.JSON)
	fmt.Println(err.Error())
	// Output:
	// taskspec: cannot write: the JSON would be 18,874,716 bytes, more than the 16,777,216 a reader accepts (prompt takes 18,874,384 of them)
}

func mustBinpb(spec *taskspecv1.TaskSpec) []byte {
	data, err := taskspec.MarshalBinpb(spec)
	if err != nil {
		panic(err)
	}
	return data
}
