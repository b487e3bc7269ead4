package taskspec

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// portability returns what keeps spec from being portable, after the Go
// package's rules (see Violations): every string that is not UTF-8 (TS106),
// which proto.Marshal and the Python library cannot hold, in field order,
// then a canonical YAML over MaxDocumentBytes (TS107), which Save and
// every reader refuse. The size is only measured when a cheap bound says
// it could be over, so that small specs cost no marshalling.
func portability(spec *taskspecv1.TaskSpec) []Violation {
	var out []Violation
	// bound is more than the canonical YAML can be: a byte of a string is
	// at most six there (an escape such as \x01 is four; a one-character
	// line of a block scalar nested in a list, "a" and its line break,
	// takes its indentation of eight more), and each field adds its key,
	// indentation and quotes. So a spec whose strings are under 2.7 MB in
	// all is never marshalled here.
	bound := 4096
	if spec != nil {
		size, n, valid := stringBytes(spec)
		bound += 6*size + 128*n
		if !valid {
			out = badStrings(spec.ProtoReflect(), "", out)
		}
	}
	if bound > MaxDocumentBytes {
		if n := canonicalSize(spec); n > MaxDocumentBytes {
			out = append(out, Violation{Message: tooLarge(n), Code: CodeTooLarge, Severity: SeverityError})
		}
	}
	return out
}

// stringBytes returns the bytes and the number of the strings of spec (map
// keys included), and whether they are all valid UTF-8: what portability
// needs of a valid spec, read without reflection and without the paths that
// only an invalid one needs.
func stringBytes(spec *taskspecv1.TaskSpec) (size, n int, valid bool) {
	valid = true
	specStrings(spec, func(s string) {
		size, n = size+len(s), n+1
		valid = valid && utf8.ValidString(s)
	})
	return size, n, valid
}

// badStrings appends to out a TS106 violation for every string of m, at
// path, that is not valid UTF-8: fields by number, a list's items in order,
// a map's entries by key.
func badStrings(m protoreflect.Message, path string, out []Violation) []Violation {
	str := func(at, s string) {
		if !utf8.ValidString(s) {
			out = append(out, Violation{FieldPath: at, Message: at + " is not valid UTF-8",
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
	return fmt.Sprintf("task spec is too large: its canonical YAML is %d bytes, more than the limit of %d", n, MaxDocumentBytes)
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
