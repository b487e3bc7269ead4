package taskspec

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/yamlrules"
)

// readsStricter returns the Python library's refusal of a text yaml.v3
// could not read (err), when it has one (see yamlrules.Stricter): the spec
// read and the walk's problems (in w) or an error. ok is false when
// yaml.v3's error stands.
func (w *reading) readsStricter(err error) (*eval.TaskSpec, error, bool) {
	// yaml.v3 cannot read it: the Go package refuses it, so no refusal here
	// is a stricter one.
	w.goRejects = true
	p, fixed := w.rules.Stricter(err)
	if p != nil {
		return nil, w.rulesRefuse(p), true
	}
	if fixed == nil {
		return nil, nil, false
	}
	retry := &reading{text: source.New(fixed)}
	retry.rules = yamlrules.For(retry.text, w.text.Bytes())
	m, rerr := retry.decode()
	if !retry.markRefused && (len(retry.problems) == 0 || rerr != nil && !topNotMapping(retry.problems[0])) {
		// The copy cannot be read either, holds nothing the walk
		// refuses, or is refused for what the copy changed: yaml.v3's
		// error stands. Where the top of the document is not a mapping,
		// the Python library reads no further either. (A copy refused for
		// a byte order mark outside a value is refused so: the Python
		// library refuses the text so once it has read it.)
		return nil, nil, false
	}
	retry.text, retry.rules = w.text, w.rules
	*w = *retry
	w.goRejects = true
	return m, rerr, true
}

// rulesRefuse is the refusal that decode returns for a problem of the
// YAML reading rules: a StrictError, of the problem's code.
func (w *reading) rulesRefuse(p *yamlrules.Problem) error {
	return w.refuse(codeOf(protoreflect.EnumNumber(p.Code)), &StrictError{Line: p.Line, Column: p.Column, Reason: p.Message})
}

// topNotMapping reports whether p refuses the top of the document for not
// being a mapping, a refusal that holds of the text as written too.
func topNotMapping(p Violation) bool {
	return p.Code == CodeWrongType && p.FieldPath == ""
}
