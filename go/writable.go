package taskspec

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// A WriteError reports a spec that a writer refuses because a reader, in
// either language, would refuse what it wrote: YAML of more than MaxNodes
// nodes (60,000 signals are 120,000 nodes), or more than MaxDocumentBytes.
// FieldPath names the top-level field that takes most of it. Nothing is
// written.
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
	count := mirrorNodes(m, nil)
	if count <= MaxNodes {
		return nil
	}
	field, part := "", -1
	mirrorNodes(m, func(key string, n int) {
		if n > part {
			field, part = key, n
		}
	})
	reason := forms.ReasonLimitTooManyNodes.Render(forms.Args{
		"n": commas(count), "limit": commas(MaxNodes), "field": field, "part": commas(part)})
	return &WriteError{FieldPath: field, Message: forms.MsgLimitCannotWrite.Render(forms.Args{"reason": reason})}
}

// checkSize refuses data, spec written as YAML, when it is over the size a
// reader accepts, naming the top-level field that adds the most bytes.
func checkSize(spec *taskspecv1.TaskSpec, data []byte) error {
	if len(data) <= MaxDocumentBytes {
		return nil
	}
	field, part := largestField(spec)
	return &WriteError{FieldPath: field, Message: tooLargeToWrite(formatNames[YAML], len(data), field, part)}
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

// The node count of the YAML written from a mirror is generated
// (mirrorNodes, in mirror_gen.go), one function per message: one node per
// scalar, and one per mapping or sequence plus its entries, omitempty
// respected. These are the pieces it shares.

// countField passes a field's nodes, its key's and its value's, to each
// (when there is one) and returns them.
func countField(each func(key string, nodes int), key string, nodes int) int {
	if each != nil {
		each(key, nodes)
	}
	return nodes
}

// present is nodes for a field omitempty keeps (set), 0 for one it drops.
func present(set bool, nodes int) int {
	if set {
		return nodes
	}
	return 0
}

// itemNodes counts a sequence of messages: the sequence and each item.
func itemNodes[T any](items []T, nodes func(*T, func(string, int)) int) int {
	n := 1
	for i := range items {
		n += nodes(&items[i], nil)
	}
	return n
}

// pointerNodes counts a message field held by a pointer, key and value: a
// nil one is null, or nothing when omitempty drops it.
func pointerNodes[T any](p *T, nodes func(*T, func(string, int)) int, omitEmpty bool) int {
	switch {
	case p != nil:
		return 1 + nodes(p, nil)
	case omitEmpty:
		return 0
	}
	return 2
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
