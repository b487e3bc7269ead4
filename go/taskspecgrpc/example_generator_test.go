package taskspecgrpc_test

import (
	"context"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// goGenerator is the generator the examples serve: it frames one Go task
// for the template it is asked for.
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
