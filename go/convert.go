package taskspec

import (
	"fmt"
	"math"
)

// An EnumError reports an enum number the schema does not define, found
// where the spec must be written as YAML. An open proto3 enum can carry any
// int32, but YAML carries only spellings, so writing such a value would lose
// it.
type EnumError struct {
	FieldPath string // "language", "difficulty" or "generated_from.kind"
	Enum      string // the enum's full name, e.g. "taskspec.v1.Language"
	Number    int32
}

func (e *EnumError) Error() string {
	return fmt.Sprintf("%s%s: enum value %d is not defined in %s and cannot be written as YAML",
		errPrefix, e.FieldPath, e.Number, e.Enum)
}

// The message and its YAML shape (the generated eval structs) are converted
// field by field by typed code that protoc-gen-taskspec-go derives from the
// descriptors (mirror_gen.go: toMirror, fromMirror and one pair of functions
// per message), so a field added to the proto, once generated, is converted
// with no edit here. What follows are the pieces that code shares.

// toInt narrows v, the int64 field name under path, to the YAML shape's int
// at dst. It can only fail where int is 32 bits wide.
func toInt(dst *int, v int64, path, name string) error {
	if !fitsInt(v) {
		return intError(join(path, name), v)
	}
	*dst = int(v)
	return nil
}

// fitsInt reports whether v fits the YAML shape's int; it always does where
// int is 64 bits wide.
func fitsInt(v int64) bool { return v >= math.MinInt && v <= math.MaxInt }

func intError(field string, v int64) error {
	return fmt.Errorf("%s%s: %d does not fit in int on this platform", errPrefix, field, v)
}

// intMapToMirror sets *dst to src, the map<string, int64> field name under
// path, narrowed to int; an empty map leaves *dst nil, so that omitempty
// drops it.
func intMapToMirror(dst *map[string]int, src map[string]int64, path, name string) error {
	if len(src) == 0 {
		return nil
	}
	out := make(map[string]int, len(src))
	for k, v := range src {
		if !fitsInt(v) {
			return intError(join(path, name)+"["+k+"]", v)
		}
		out[k] = int(v)
	}
	*dst = out
	return nil
}

// enumTextError is fromMirror's refusal of enum text that spells no value:
// the error Validate gives for it, naming the enum's field.
func enumTextError(path, text string) error {
	return &ValidationError{Violations: []Violation{{
		FieldPath: path, Message: fmt.Sprintf("invalid %s %q", path, text), Code: CodeDefined, Severity: SeverityError,
	}}}
}
