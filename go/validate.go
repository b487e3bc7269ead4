package taskspec

import (
	"fmt"
	"sort"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// errPrefix starts every error message of this package, as it starts every
// message of the Go package, so that a service can switch between the two
// without changing its logs, alerts or tests.
const errPrefix = "eval: "

// A Violation is one broken rule of the contract, found by Validate or
// ParseYAML.
//
// FieldPath names the field with the canonical YAML keys joined by dots
// ("generated_from.kind"). Message is the Go package's wording without its
// "eval: " prefix, which is also the message the Python library's
// Violation carries, so logs from services in either language read alike.
// Line and Column are the 1-based position of the offending value when the
// spec came from a document (for a missing field, the position of its
// nearest enclosing mapping), and 0 for a spec built in memory.
type Violation struct {
	FieldPath string
	Message   string
	Line      int
	Column    int
}

// String returns the message, after the position when there is one.
func (v Violation) String() string {
	if v.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", v.Line, v.Column, v.Message)
	}
	return v.Message
}

// A ValidationError reports a spec that breaks the contract. Violations
// holds every broken rule in the Go package's order; Error returns only the
// first, exactly as the Go package's Validate does ("eval: task_id is
// required"), because callers match on that text.
type ValidationError struct {
	Violations []Violation
}

// Error returns the Go package's message for the first violation.
func (e *ValidationError) Error() string {
	if len(e.Violations) == 0 {
		return errPrefix + "invalid task spec"
	}
	return errPrefix + e.Violations[0].Message
}

// ruleCheck is what a rule demands of its field's value: the Check enum of
// proto/taskspec/v1/options.proto.
type ruleCheck int

const (
	checkEquals   ruleCheck = iota + 1 // an integer equal to the bound
	checkAtLeast                       // an integer no smaller than the bound
	checkNotBlank                      // a string with a character strings.TrimSpace keeps
	checkDefined                       // an enum spelling a defined value other than UNSPECIFIED
	checkNotEmpty                      // a list with at least one item
)

// ruleValue is a field's value as a rule looks at it: num for an integer,
// and a list's length; text for a string, and an enum's spelling.
type ruleValue struct {
	num  int64
	text string
}

// A rule is one check of Validate, read from a field's
// (taskspec.v1.field).rule by protoc-gen-taskspec-go into the table rules
// (contract_gen.go), in the Go package's order.
type rule struct {
	path    string // the field, as its YAML path
	check   ruleCheck
	bound   int64  // for checkEquals and checkAtLeast
	message string // the Go package's wording: a format of the value, then the bound
	args    int    // how many of the value and the bound message shows
	// defined reports whether an enum's text spells a defined value
	// (checkDefined only).
	defined func(string) bool
	// mirror and proto read the field's value from a decoded document (enum
	// text as written) and from a message (enum text as spelled, or the
	// digits of an undefined number).
	mirror func(*eval.TaskSpec) ruleValue
	proto  func(*taskspecv1.TaskSpec) ruleValue
}

func (r *rule) broken(v ruleValue) bool {
	switch r.check {
	case checkEquals:
		return v.num != r.bound
	case checkAtLeast:
		return v.num < r.bound
	case checkNotBlank:
		// strings.TrimSpace is the Go package's notion of blank (unicode.IsSpace).
		return strings.TrimSpace(v.text) == ""
	case checkDefined:
		return !r.defined(v.text)
	case checkNotEmpty:
		return v.num == 0
	}
	return false
}

func (r *rule) format(v ruleValue) string {
	var value any = v.num
	if r.check == checkNotBlank || r.check == checkDefined {
		value = v.text
	}
	return fmt.Sprintf(r.message, []any{value, r.bound}[:r.args]...)
}

// checked is what the rules look at: a decoded document or a message. One
// rule set serves both, so a document and the message it decodes to can
// never be judged differently.
type checked struct {
	mirror *eval.TaskSpec
	proto  *taskspecv1.TaskSpec
}

func checkedFromMirror(m *eval.TaskSpec) *checked { return &checked{mirror: m} }

func checkedFromProto(spec *taskspecv1.TaskSpec) *checked { return &checked{proto: spec} }

// check returns every violation in the Go package's order: the order of
// rules, which follows the fields of TaskSpec depth first by number
// (version, task_id, language, difficulty, generated_from.kind, prompt,
// verification.test_cmd, verification.timeout_seconds). Nothing else is
// checked; in particular an empty solution artifact path and an empty
// kg_query are valid, and no file or symbol is looked up.
func check(c *checked) []Violation {
	var out []Violation
	for i := range rules {
		r := &rules[i]
		var v ruleValue
		if c.mirror != nil {
			v = r.mirror(c.mirror)
		} else {
			v = r.proto(c.proto)
		}
		if r.broken(v) {
			out = append(out, Violation{FieldPath: r.path, Message: r.format(v)})
		}
	}
	return out
}

// Violations returns every rule spec breaks, in the Go package's order, or
// nil when it is valid. The list is the one the Python library's
// ValidationError.violations holds for the same spec. An enum number the
// schema does not define is reported by its digits (invalid language "7").
// A nil spec is checked as an empty one, as the generated getters read it.
func Violations(spec *taskspecv1.TaskSpec) []Violation {
	return check(checkedFromProto(spec))
}

// Validate checks spec against the contract and returns nil or a
// *ValidationError whose message is the Go package's for the first broken
// rule (use errors.As to get all of them). Like the Go package, it does not
// check that referenced files or symbols exist: that is a downstream,
// I/O-bearing concern.
func Validate(spec *taskspecv1.TaskSpec) error {
	if vs := Violations(spec); len(vs) > 0 {
		return &ValidationError{Violations: vs}
	}
	return nil
}

// SignalKeys returns the difficulty-signal keys in plain byte order, as the
// Go package's SignalKeys (sort.Strings) does, for callers that need a
// stable iteration order. It is never nil. Note that it is not the order in
// which MarshalYAML writes the keys: that is yaml.v3's own order, in which
// "a9" comes before "a10".
func SignalKeys(spec *taskspecv1.TaskSpec) []string {
	sig := spec.GetDifficultySignals()
	keys := make([]string, 0, len(sig))
	for k := range sig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
