package taskspec

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// A hidden field under a list is cleared in every item, as the Python
// library's agent view clears it; no field of today's proto is one, so the
// walk is tried on a path of its own.
func TestClearPathGoesThroughEveryItemOfAList(t *testing.T) {
	spec := &taskspecv1.TaskSpec{SolutionArtifacts: []*taskspecv1.SolutionArtifact{
		{Path: "a.go", Role: "target"}, {Path: "b.go", Role: "test"},
	}}
	clearPath(spec.ProtoReflect(), []protoreflect.Name{"solution_artifacts", "role"})
	for _, a := range spec.GetSolutionArtifacts() {
		if a.GetRole() != "" || a.GetPath() == "" {
			t.Errorf("artifact = %v", a)
		}
	}
	// An unset message along the way stays unset.
	clearPath(spec.ProtoReflect(), []protoreflect.Name{"generated_from", "kg_query", "intent"})
	if spec.GetGeneratedFrom() != nil {
		t.Errorf("generated_from = %v", spec.GetGeneratedFrom())
	}
}
