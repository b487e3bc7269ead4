package taskspec_test

import (
	"context"
	"errors"
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

const sidecar = `task_spec_version: 1
task_id: kg-go-impl-mathx-gcd
language: go
difficulty: medium
difficulty_signals:
    cyclomatic_complexity: 4
    edge_count: 9
generated_from:
    kind: kg_template
    template_id: impl-pure-fn
prompt: Implement mathx.GCD.
verification:
    test_cmd:
        - go
        - test
        - ./mathx/...
    timeout_seconds: 120
`

func ExampleParseYAML() {
	spec, err := taskspec.ParseYAML([]byte(sidecar))
	if err != nil {
		panic(err)
	}
	fmt.Println(spec.GetTaskId(), spec.GetLanguage(), spec.GetVerification().GetTestCmd())

	_, err = taskspec.ParseYAML([]byte("task_spec_version: 1\ntaskid: 1\n"))
	fmt.Println(err)
	// Output:
	// kg-go-impl-mathx-gcd LANGUAGE_GO [go test ./mathx/...]
	// taskspec: decode task spec: line 2, column 1: taskid: unknown field "taskid"; did you mean "task_id"? (and 5 more problems)
}

func ExampleValidate() {
	spec, _ := taskspec.ParseYAML([]byte(sidecar))
	spec.Prompt = "  "
	spec.Language = taskspecv1.Language_LANGUAGE_UNSPECIFIED

	err := taskspec.Validate(spec)
	fmt.Println(err)
	var verr *taskspec.ValidationError
	if errors.As(err, &verr) {
		for _, v := range verr.Violations {
			fmt.Printf("%s: %s\n", v.FieldPath, v.Message)
		}
	}
	// Output:
	// taskspec: invalid language "" (and 1 more problem)
	// language: invalid language ""
	// prompt: prompt is required
}

func ExampleMarshalYAML() {
	spec := &taskspecv1.TaskSpec{
		TaskSpecVersion:   1,
		TaskId:            "t-1",
		Language:          taskspecv1.Language_LANGUAGE_PYTHON,
		Difficulty:        taskspecv1.Difficulty_DIFFICULTY_EASY,
		DifficultySignals: map[string]int64{"a10": 1, "a9": 2},
		GeneratedFrom:     &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, KgQuery: &taskspecv1.KGQuery{}},
		Prompt:            "Fix the bug.\nKeep the API.",
		Verification:      &taskspecv1.Verification{TestCmd: []string{"pytest", "-q"}},
	}
	out, err := taskspec.MarshalYAML(spec)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// task_spec_version: 1
	// task_id: t-1
	// language: python
	// difficulty: easy
	// difficulty_signals:
	//     a9: 2
	//     a10: 1
	// generated_from:
	//     kind: kg_template
	//     kg_query: {}
	// prompt: |-
	//     Fix the bug.
	//     Keep the API.
	// verification:
	//     test_cmd:
	//         - pytest
	//         - -q
}

type goGenerator struct{}

func (goGenerator) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (goGenerator) Generate(_ context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	band, signals, err := taskspec.DeriveDifficulty(taskspec.DifficultyInputs{NodeCount: 6, EdgeCount: 9, Cyclomatic: 4})
	if err != nil {
		return nil, err
	}
	return &taskspecv1.TaskSpec{
		TaskSpecVersion: taskspec.CurrentTaskSpecVersion, TaskId: "kg-go-1",
		Language: taskspecv1.Language_LANGUAGE_GO, Difficulty: band, DifficultySignals: signals,
		GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: opts.GetTemplateId()},
		Prompt:        "Implement it.",
		Verification:  &taskspecv1.Verification{TestCmd: []string{"go", "test", "./..."}},
	}, nil
}

func ExampleRegistry() {
	reg := taskspec.NewRegistry()
	if err := reg.Register(goGenerator{}); err != nil {
		panic(err)
	}
	fmt.Println(reg.Register(goGenerator{}))

	gen, ok := reg.Lookup(taskspecv1.Language_LANGUAGE_GO)
	fmt.Println(ok, reg.Languages())
	spec, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "impl-pure-fn"})
	fmt.Println(spec.GetDifficulty(), taskspec.SignalKeys(spec), err, taskspec.Validate(spec))
	// Output:
	// taskspec: generator for language "go" already registered
	// true [LANGUAGE_GO]
	// DIFFICULTY_MEDIUM [cyclomatic_complexity edge_count involved_symbols] <nil> <nil>
}

// A document that cannot be read gives a *DecodeError that says where the
// problem is and, for a misspelled key, what was meant; its text is the Go
// package's.
func ExampleDecodeError() {
	_, err := taskspec.ParseYAML([]byte("task_spec_version: 1\ntaskid: t\n"))
	var de *taskspec.DecodeError
	if errors.As(err, &de) {
		fmt.Printf("%s at %d:%d: %s\n", de.FieldPath, de.Line, de.Column, de.Hint)
	}
	fmt.Println(err)
	// Output:
	// taskid at 2:1: did you mean "task_id"?
	// taskspec: decode task spec: line 2, column 1: taskid: unknown field "taskid"; did you mean "task_id"? (and 5 more problems)
}

func ExampleAgentView() {
	spec, err := taskspec.ParseYAML([]byte(sidecar))
	if err != nil {
		panic(err)
	}
	view := taskspec.AgentView(spec)
	out, err := taskspec.MarshalYAML(view)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	fmt.Println(taskspec.Validate(view))
	fmt.Println(spec.GetVerification().GetTestCmd()) // spec itself is unchanged
	// Output:
	// task_spec_version: 1
	// task_id: kg-go-impl-mathx-gcd
	// language: go
	// difficulty: medium
	// difficulty_signals:
	//     cyclomatic_complexity: 4
	//     edge_count: 9
	// generated_from:
	//     kind: kg_template
	//     template_id: impl-pure-fn
	// prompt: Implement mathx.GCD.
	// verification:
	//     test_cmd: []
	// taskspec: verification.test_cmd is required
	// [go test ./mathx/...]
}

func ExampleDeriveDifficulty() {
	band, signals, err := taskspec.DeriveDifficulty(taskspec.DifficultyInputs{NodeCount: 6, EdgeCount: 9, Cyclomatic: 4})
	fmt.Println(band, signals[taskspec.SignalInvolvedSymbols], signals[taskspec.SignalEdgeCount],
		signals[taskspec.SignalCyclomaticComplexity], err)

	_, _, err = taskspec.DeriveDifficulty(taskspec.DifficultyInputs{NodeCount: 0, EdgeCount: -1, Cyclomatic: 1})
	fmt.Println(err)
	var verr *taskspec.ValidationError
	if errors.As(err, &verr) {
		for _, v := range verr.Violations {
			fmt.Printf("%s: %s\n", v.FieldPath, v.Message)
		}
	}
	// Output:
	// DIFFICULTY_MEDIUM 6 9 4 <nil>
	// taskspec: difficulty node count must be at least 1 (the seed itself), got 0 (and 1 more problem)
	// difficulty_signals.involved_symbols: difficulty node count must be at least 1 (the seed itself), got 0
	// difficulty_signals.edge_count: difficulty edge count must be non-negative, got -1
}
