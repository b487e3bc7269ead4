package taskspec

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// A WriteError reports a spec that a writer refuses because a reader, in
// either language, would refuse what it wrote: YAML of more than MaxNodes
// nodes (60,000 signals are 120,000 nodes), or more than MaxDocumentBytes.
// FieldPath names the top-level field that takes most of it. Nothing is
// written. The words are the Python library's for the same spec.
type WriteError struct {
	FieldPath string
	Message   string
}

func (e *WriteError) Error() string {
	if e.Message == "" {
		return errPrefix + "the task spec cannot be written"
	}
	return errPrefix + e.Message
}

// checkWritable refuses m, the YAML shape of spec, when a reader would
// refuse the YAML written from it for its node count. It needs only the
// structs, so it runs before the YAML is written, which for a spec of a
// million signals would be the costly part.
func checkWritable(m *eval.TaskSpec) error {
	root := reflect.ValueOf(m).Elem()
	count := yamlNodes(root)
	if count <= MaxNodes {
		return nil
	}
	field, part := "", -1
	t := root.Type()
	for i := 0; i < t.NumField(); i++ {
		if n := fieldNodes(t.Field(i), root.Field(i)); n > part {
			field, part = yamlName(t.Field(i)), n
		}
	}
	return &WriteError{FieldPath: field, Message: fmt.Sprintf(
		"cannot write: the YAML would have %s nodes, more than the %s a reader accepts (%s has %s of them)",
		commas(count), commas(MaxNodes), field, commas(part))}
}

// checkSize refuses data, spec written as YAML, when it is over the size a
// reader accepts, naming the top-level field that adds the most bytes.
func checkSize(spec *taskspecv1.TaskSpec, data []byte) error {
	if len(data) <= MaxDocumentBytes {
		return nil
	}
	field, part := largestField(spec)
	where := ""
	if field != "" {
		where = fmt.Sprintf(" (%s takes %s of them)", field, commas(part))
	}
	return &WriteError{FieldPath: field, Message: fmt.Sprintf(
		"cannot write: the YAML would be %s bytes, more than the %s a reader accepts%s",
		commas(len(data)), commas(MaxDocumentBytes), where)}
}

// largestField returns the set top-level field of spec that adds the most
// to its YAML, each measured written alone against an empty spec; only on
// the way to an error.
func largestField(spec *taskspecv1.TaskSpec) (string, int) {
	empty, _ := MarshalYAML(&taskspecv1.TaskSpec{})
	best, size := "", 0
	spec.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		alone := &taskspecv1.TaskSpec{}
		alone.ProtoReflect().Set(fd, v)
		if out, err := MarshalYAML(proto.Clone(alone).(*taskspecv1.TaskSpec)); err == nil && len(out)-len(empty) > size {
			best, size = string(fd.Name()), len(out)-len(empty)
		}
		return true
	})
	return best, size
}

// yamlNodes counts the nodes yaml.v3 writes for v: one per scalar, and
// one per mapping or sequence plus its entries, omitempty respected.
func yamlNodes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 1 // null
		}
		return yamlNodes(v.Elem())
	case reflect.Struct:
		n := 1
		for i := 0; i < v.NumField(); i++ {
			n += fieldNodes(v.Type().Field(i), v.Field(i))
		}
		return n
	case reflect.Slice:
		n := 1
		for i := 0; i < v.Len(); i++ {
			n += yamlNodes(v.Index(i))
		}
		return n
	case reflect.Map:
		n := 1
		iter := v.MapRange()
		for iter.Next() {
			n += 1 + yamlNodes(iter.Value())
		}
		return n
	default:
		return 1
	}
}

// fieldNodes counts a struct field's key and value, or 0 when omitempty
// leaves it out.
func fieldNodes(f reflect.StructField, v reflect.Value) int {
	if strings.HasSuffix(f.Tag.Get("yaml"), ",omitempty") && v.IsZero() {
		return 0
	}
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 &&
		strings.HasSuffix(f.Tag.Get("yaml"), ",omitempty") {
		return 0
	}
	return 1 + yamlNodes(v)
}

// yamlName is the YAML key of a struct field of the eval mirror: the name
// its yaml tag gives, options left off.
func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

// commas writes n with a comma between each group of three digits, as the
// Python library's messages write numbers ("120,000").
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
