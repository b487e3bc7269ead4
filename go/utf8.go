package taskspec

import (
	"unicode/utf8"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// invalidUTF8 returns the path of the first string in spec, in
// field-number order, that is not valid UTF-8, or "". A Go string can hold
// any bytes, but a protobuf string is UTF-8 (proto.Marshal refuses one that
// is not), and yaml.v3 would write such a string as !!binary, which no
// reader of a sidecar accepts: so the writers refuse it, naming the field.
//
// Every write runs it, and nearly every spec is valid, so the generated
// specStrings looks at the strings first, with no reflection and no
// paths; the walk that builds paths runs only for a spec that has a string
// to name: Validate's walk (badStrings), whose first problem is the one
// named. Of a map's invalid entries that is the one whose key sorts first,
// so that the same spec always gives the same path.
func invalidUTF8(spec *taskspecv1.TaskSpec) string {
	valid := true
	specStrings(spec, func(s string) { valid = valid && utf8.ValidString(s) })
	if valid {
		return ""
	}
	if bad := badStrings(spec.ProtoReflect(), "", nil); len(bad) > 0 {
		return bad[0].FieldPath
	}
	return ""
}
