package taskspec

import (
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
)

// portability returns what keeps spec from being portable, after the Go
// package's rules (see Violations): every string that is not UTF-8 (TS106),
// which proto.Marshal and the Python library cannot hold, in field order,
// then a canonical YAML over MaxDocumentBytes (TS107), which Save and
// every reader refuse. The size is only measured when a cheap bound says
// it could be over, so that small specs cost no marshalling.
func portability(spec *taskspecv1.TaskSpec) []Violation {
	var out []Violation
	bound, valid := sizeBound(spec)
	if !valid {
		// MarshalYAML refuses such a spec, so it has no canonical size.
		return badStrings(spec.ProtoReflect(), "", out)
	}
	// The bound is cheap and never under the size (see sizeBound); only a
	// spec it puts over the limit is written out and measured.
	if bound > MaxDocumentBytes {
		if n := canonicalSize(spec); n > MaxDocumentBytes {
			out = append(out, Violation{Message: tooLarge(n), Code: CodeTooLarge, Severity: SeverityError})
		}
	}
	return out
}

// badStrings appends to out a TS106 violation for every string of m, at
// path, that is not valid UTF-8: fields by number, a list's items in order,
// a map's entries by key.
func badStrings(m protoreflect.Message, path string, out []Violation) []Violation {
	str := func(at, s string) {
		if !utf8.ValidString(s) {
			out = append(out, Violation{FieldPath: at, Message: forms.MsgNotUTF8NotUTF8.Render(forms.Args{"path": at}),
				Code: CodeNotUTF8, Severity: SeverityError})
		}
	}
	for _, fd := range fieldsByNumber(m.Descriptor()) {
		if !m.Has(fd) {
			continue
		}
		sub := join(path, string(fd.Name()))
		v := m.Get(fd)
		switch {
		case fd.IsMap():
			keys := make([]string, 0, v.Map().Len())
			v.Map().Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
				keys = append(keys, k.String())
				return true
			})
			sort.Strings(keys)
			for _, k := range keys {
				str(fmt.Sprintf("%s[%q]", sub, k), k)
				if fd.MapValue().Kind() == protoreflect.StringKind {
					str(fmt.Sprintf("%s[%q]", sub, k), v.Map().Get(protoreflect.ValueOfString(k).MapKey()).String())
				}
			}
		case fd.IsList():
			for i := range v.List().Len() {
				item := fmt.Sprintf("%s[%d]", sub, i)
				switch fd.Kind() {
				case protoreflect.StringKind:
					str(item, v.List().Get(i).String())
				case protoreflect.MessageKind:
					out = badStrings(v.List().Get(i).Message(), item, out)
				}
			}
		case fd.Kind() == protoreflect.StringKind:
			str(sub, v.String())
		case fd.Kind() == protoreflect.MessageKind:
			out = badStrings(v.Message(), sub, out)
		}
	}
	return out
}

func tooLarge(n int) string {
	return forms.MsgTooLargeTooLarge.Render(forms.Args{"n": strconv.Itoa(n), "limit": strconv.Itoa(MaxDocumentBytes)})
}

// canonicalSize is the length of spec's canonical YAML, 0 when it cannot
// be written (an undefined enum, which the rules already report).
func canonicalSize(spec *taskspecv1.TaskSpec) int {
	out, err := MarshalYAML(spec)
	if err != nil {
		return 0
	}
	return len(out)
}
