package taskspec

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// hiddenSteps is hiddenFields (contract_gen.go) split into field names.
var hiddenSteps = func() [][]protoreflect.Name {
	out := make([][]protoreflect.Name, len(hiddenFields))
	for i, path := range hiddenFields {
		for _, name := range strings.Split(path, ".") {
			out[i] = append(out[i], protoreflect.Name(name))
		}
	}
	return out
}()

// AgentView returns a copy of spec with every field hidden from the agent
// cleared, with everything under it; spec is left unchanged.
//
// The hidden fields are those the schema marks hidden (their
// (taskspec.v1.field).visibility is VISIBILITY_HIDDEN): today the whole
// verification block, because an agent that can read the test command can
// tailor its solution to the tests instead of solving the task.
//
// The view is for showing, not for running: with no test_cmd it is not a
// valid spec, so Validate and Save reject it, while MarshalYAML writes it
// (with an empty verification block, test_cmd: []). Unknown fields (those
// of a newer schema, kept by the binary parser) are dropped too, at every
// level, because nothing is known about whether they may be shown. The
// input is not validated: any TaskSpec has a view. A nil spec gives nil.
func AgentView(spec *taskspecv1.TaskSpec) *taskspecv1.TaskSpec {
	if spec == nil {
		return nil
	}
	view := proto.Clone(spec).(*taskspecv1.TaskSpec)
	m := view.ProtoReflect()
	for _, steps := range hiddenSteps {
		clearPath(m, steps)
	}
	discardUnknown(m)
	return view
}

// clearPath clears the field at steps under m, in every item of a list
// along the way.
func clearPath(m protoreflect.Message, steps []protoreflect.Name) {
	fd := m.Descriptor().Fields().ByName(steps[0])
	if fd == nil {
		return
	}
	if len(steps) == 1 {
		m.Clear(fd)
		return
	}
	switch {
	case fd.IsList():
		list := m.Get(fd).List()
		for i := 0; i < list.Len(); i++ {
			clearPath(list.Get(i).Message(), steps[1:])
		}
	case fd.Message() != nil && !fd.IsMap() && m.Has(fd):
		clearPath(m.Mutable(fd).Message(), steps[1:])
	}
}

// discardUnknown drops the unknown fields of m and of every message under
// it.
func discardUnknown(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			list := v.List()
			for i := 0; i < list.Len(); i++ {
				discardUnknown(list.Get(i).Message())
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				discardUnknown(mv.Message())
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			discardUnknown(v.Message())
		}
		return true
	})
	if len(m.GetUnknown()) > 0 {
		m.SetUnknown(nil)
	}
}
