package jsonread

import (
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// Every problem that leaves a value out is found in one run, in document
// order, and the rest of the message is read.
func TestReadFindsEveryProblemInOneRun(t *testing.T) {
	spec, problems, stop := Read(`{"prompt": 1, "bogus": true, "task_id": "t"}`, 64)
	if stop != nil || spec == nil {
		t.Fatalf("stopped: %+v", stop)
	}
	if spec.GetTaskId() != "t" || spec.GetPrompt() != "" {
		t.Errorf("read %v", spec)
	}
	want := []Problem{
		{Path: "prompt", Message: "prompt: expected a string, got the number 1", Code: taskspecv1.ProblemCode_PROBLEM_CODE_WRONG_TYPE},
		{Path: "bogus", Message: `unknown field "bogus"`, Code: taskspecv1.ProblemCode_PROBLEM_CODE_UNKNOWN_KEY},
	}
	if len(problems) != len(want) {
		t.Fatalf("problems %+v, want %+v", problems, want)
	}
	for i, p := range problems {
		p.Hint = ""
		if p != want[i] {
			t.Errorf("problem %d = %+v, want %+v", i, p, want[i])
		}
	}
}

// Text that is not JSON, or nested too deeply, stops reading at its place;
// anything but an object at the top stops it too.
func TestReadStopsAtTextThatCannotBeRead(t *testing.T) {
	for _, c := range []struct {
		text string
		want Problem
	}{
		{"{\n  \"prompt\": x}", Problem{Message: "invalid JSON: expected a value", Code: taskspecv1.ProblemCode_PROBLEM_CODE_JSON_SYNTAX, Line: 2, Column: 13}},
		{`{"labels": [[[]]]}`, Problem{Message: "document is nested deeper than 3 levels", Code: taskspecv1.ProblemCode_PROBLEM_CODE_LIMIT, Line: 1, Column: 14}},
		{`[1]`, Problem{Message: "expected a JSON object at the top, got an array", Code: taskspecv1.ProblemCode_PROBLEM_CODE_WRONG_TYPE}},
	} {
		spec, problems, stop := Read(c.text, 3)
		if spec != nil || problems != nil || stop == nil || *stop != c.want {
			t.Errorf("Read(%q) = %v, %+v, %+v; want it stopped at %+v", c.text, spec, problems, stop, c.want)
		}
	}
}
