package taskspec

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// stringSlots returns, for every string a TaskSpec can hold (a string
// field, a list's item, a map's key), its path and a function that puts a
// value there in a new spec: read from the descriptor, so that a string
// field added to the proto is found here with no edit.
func stringSlots(md protoreflect.MessageDescriptor, path string,
	at func(*taskspecv1.TaskSpec) protoreflect.Message) map[string]func(*taskspecv1.TaskSpec, string) {
	out := map[string]func(*taskspecv1.TaskSpec, string){}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		name := join(path, string(fd.Name()))
		switch {
		case fd.IsMap() && fd.MapKey().Kind() == protoreflect.StringKind:
			out[fmt.Sprintf("%s[%q]", name, "\xff")] = func(s *taskspecv1.TaskSpec, v string) {
				m := at(s)
				m.Mutable(fd).Map().Set(protoreflect.ValueOfString(v).MapKey(), m.Mutable(fd).Map().NewValue())
			}
		case fd.IsList() && fd.Kind() == protoreflect.StringKind:
			out[name+"[0]"] = func(s *taskspecv1.TaskSpec, v string) {
				at(s).Mutable(fd).List().Append(protoreflect.ValueOfString(v))
			}
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			item := func(s *taskspecv1.TaskSpec) protoreflect.Message {
				list := at(s).Mutable(fd).List()
				if list.Len() == 0 {
					list.Append(list.NewElement())
				}
				return list.Get(0).Message()
			}
			for p, set := range stringSlots(fd.Message(), name+"[0]", item) {
				out[p] = set
			}
		case fd.Kind() == protoreflect.MessageKind:
			sub := func(s *taskspecv1.TaskSpec) protoreflect.Message { return at(s).Mutable(fd).Message() }
			for p, set := range stringSlots(fd.Message(), name, sub) {
				out[p] = set
			}
		case fd.Kind() == protoreflect.StringKind:
			out[name] = func(s *taskspecv1.TaskSpec, v string) { at(s).Set(fd, protoreflect.ValueOfString(v)) }
		}
	}
	return out
}

// The generated walk over a spec's strings (specStrings) reaches every
// string the descriptor has: a string that is not UTF-8 anywhere is named by
// the writers' check and reported by Validate as TS106, at its path.
func TestEveryStringIsCheckedForUTF8(t *testing.T) {
	root := func(s *taskspecv1.TaskSpec) protoreflect.Message { return s.ProtoReflect() }
	slots := stringSlots((&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor(), "", root)
	if len(slots) < 8 {
		t.Fatalf("found %d string slots: %v", len(slots), slots)
	}
	for path, set := range slots {
		spec := &taskspecv1.TaskSpec{}
		set(spec, "\xff")
		if got := invalidUTF8(spec); got != path {
			t.Errorf("invalidUTF8 names %q, want %q", got, path)
		}
		vs := portability(spec)
		if len(vs) != 1 || vs[0].FieldPath != path || vs[0].Code != CodeNotUTF8 {
			t.Errorf("%s: portability gives %v", path, vs)
		}
		spec = &taskspecv1.TaskSpec{}
		set(spec, "fine")
		if got := invalidUTF8(spec); got != "" {
			t.Errorf("%s: a valid string is named: %q", path, got)
		}
		if _, valid := sizeBound(spec); !valid {
			t.Errorf("%s: sizeBound finds a valid string invalid", path)
		}
		set(spec, "\xff")
		if _, valid := sizeBound(spec); valid {
			t.Errorf("%s: sizeBound finds an invalid string valid", path)
		}
	}
}
