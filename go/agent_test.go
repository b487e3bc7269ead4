package taskspec_test

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// hiddenByOptions walks TaskSpec's descriptors, depth first by number, and
// returns the path of every field its (taskspec.v1.field) option hides or
// that lies under a hidden field, and the path of every other field.
func hiddenByOptions(t *testing.T) (hidden, shown map[string]bool) {
	t.Helper()
	hidden, shown = map[string]bool{}, map[string]bool{}
	var walk func(md protoreflect.MessageDescriptor, path string, under bool)
	walk = func(md protoreflect.MessageDescriptor, path string, under bool) {
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			p := string(fd.Name())
			if path != "" {
				p = path + "." + p
			}
			c, ok := proto.GetExtension(fd.Options(), taskspecv1.E_Field).(*taskspecv1.FieldContract)
			if !ok || c.GetVisibility() == taskspecv1.Visibility_VISIBILITY_UNSPECIFIED {
				t.Fatalf("%s: no visibility", fd.FullName())
			}
			h := under || c.GetVisibility() == taskspecv1.Visibility_VISIBILITY_HIDDEN
			if h {
				hidden[p] = true
			} else {
				shown[p] = true
			}
			if fd.Message() != nil && !fd.IsMap() {
				walk(fd.Message(), p, h)
			}
		}
	}
	walk((&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor(), "", false)
	if len(hidden) == 0 {
		t.Fatal("the proto hides no field")
	}
	return hidden, shown
}

// fill sets every field of m, at every depth, to a value that is not its
// zero, and gives every message an unknown field.
func fill(m protoreflect.Message) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		switch {
		case fd.IsMap():
			m.Mutable(fd).Map().Set(protoreflect.ValueOfString("k").MapKey(), scalar(fd.MapValue()))
		case fd.IsList() && fd.Message() != nil:
			fill(m.Mutable(fd).List().AppendMutable().Message())
		case fd.IsList():
			m.Mutable(fd).List().Append(scalar(fd))
		case fd.Message() != nil:
			fill(m.Mutable(fd).Message())
		default:
			m.Set(fd, scalar(fd))
		}
	}
	m.SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 999, protowire.VarintType), 7))
}

func scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString("x")
	case protoreflect.Int64Kind:
		return protoreflect.ValueOfInt64(5)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(1)
	}
	panic("no value for a " + fd.Kind().String())
}

// populated reports the paths of the fields set in m, at every depth
// (through the first item of a list).
func populated(m protoreflect.Message, path string, out map[string]bool) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		p := string(fd.Name())
		if path != "" {
			p = path + "." + p
		}
		out[p] = true
		switch {
		case fd.IsList() && fd.Message() != nil && v.List().Len() > 0:
			populated(v.List().Get(0).Message(), p, out)
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			populated(v.Message(), p, out)
		}
		return true
	})
}

// The view clears exactly the fields the proto's options hide, keeps every
// other field, drops unknown fields at every level and leaves its input as
// it was.
func TestAgentViewHidesExactlyWhatTheProtoOptionsHide(t *testing.T) {
	hidden, shown := hiddenByOptions(t)
	spec := &taskspecv1.TaskSpec{}
	fill(spec.ProtoReflect())
	before := proto.Clone(spec)

	view := taskspec.AgentView(spec)
	if !proto.Equal(spec, before) || len(spec.ProtoReflect().GetUnknown()) == 0 {
		t.Fatal("AgentView changed its input")
	}
	got := map[string]bool{}
	populated(view.ProtoReflect(), "", got)
	for p := range hidden {
		if got[p] {
			t.Errorf("%s is hidden by the proto, but the view has it", p)
		}
	}
	for p := range shown {
		if !got[p] {
			t.Errorf("%s is shown by the proto, but the view lacks it", p)
		}
	}
	unknown := 0
	var count func(m protoreflect.Message)
	count = func(m protoreflect.Message) {
		unknown += len(m.GetUnknown())
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.IsList() && fd.Message() != nil {
				for i := 0; i < v.List().Len(); i++ {
					count(v.List().Get(i).Message())
				}
			} else if !fd.IsList() && !fd.IsMap() && fd.Message() != nil {
				count(v.Message())
			}
			return true
		})
	}
	count(view.ProtoReflect())
	if unknown != 0 {
		t.Errorf("the view keeps %d bytes of unknown fields", unknown)
	}
	if taskspec.AgentView(nil) != nil {
		t.Error("AgentView(nil) is not nil")
	}
}
