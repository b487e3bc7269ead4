package taskspec

import (
	"fmt"
	"math"
	"sort"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// errPrefix starts every error message of this package. The eval package
// this library replaces started its messages with "eval: "; what follows
// the prefix is its words wherever it had a message (see the package doc).
const errPrefix = "taskspec: "

// andMore is what an error's text adds after its first problem when it
// holds more: " (and 1 more problem)", " (and 5 more problems)", or "" for
// none. The Python library's errors and both libraries' GeneratorService
// statuses say it in the same words.
func andMore(more int) string {
	switch {
	case more == 1:
		return " (and 1 more problem)"
	case more > 1:
		return fmt.Sprintf(" (and %d more problems)", more)
	}
	return ""
}

// A Violation is one problem of a spec or document: a broken rule of the
// contract (Validate), a document that cannot be read (ParseYAML, Check),
// or a warning (Check). It is the contract's Problem model, as the CLI's
// JSON and the GeneratorService's errors carry it (taskspec.v1.Problem,
// see [Violation.Proto]).
//
// Code is the kind of problem, a code of the catalogue ("TS101"; see
// Lookup and Explain). FieldPath names the field with the canonical YAML
// keys joined by dots ("generated_from.kind"), list indices and map keys
// in brackets. Message is what is wrong: for a broken rule, the rule's own
// message ("task_id is required"), for anything else the catalogue's
// words; it has no "taskspec: " prefix and never holds the hint. Line and Column are the 1-based
// position of the offending value when the spec came from a document (for
// a missing field, the position of its nearest enclosing mapping), and 0
// for none; a Line with a Column of 0 is a line whose column is unknown.
// Hint says how to fix it, or is "". Severity is "error" or "warning"; a
// Violation with none is an error. Fix is the one safe edit that fixes it,
// the hint's suggestion as data, or nil (see [Fix] and [ApplyFixes]).
type Violation struct {
	FieldPath string
	Message   string
	Line      int
	Column    int
	Code      Code
	Hint      string
	Severity  Severity
	Fix       *Fix
}

// String renders the problem as the contract writes it as text:
// "line L, column C: message; hint", the position left out when there is
// none (Line 0), "; hint" when there is no hint.
func (v Violation) String() string {
	var b strings.Builder
	if v.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", v.Line, v.Column)
	}
	b.WriteString(v.Message)
	if v.Hint != "" {
		b.WriteString("; " + v.Hint)
	}
	return b.String()
}

// Proto returns the problem as the contract's taskspec.v1.Problem, the
// shape it has in CLI JSON and gRPC status details. An empty Severity is
// an error.
func (v Violation) Proto() *taskspecv1.Problem {
	sev := taskspecv1.Severity_SEVERITY_ERROR
	if v.Severity == SeverityWarning {
		sev = taskspecv1.Severity_SEVERITY_WARNING
	}
	return &taskspecv1.Problem{
		Code: string(v.Code), FieldPath: v.FieldPath, Line: clampInt32(v.Line), Column: clampInt32(v.Column),
		Message: v.Message, Hint: v.Hint, Severity: sev, Fix: v.Fix.proto(),
	}
}

// ViolationFromProto returns the Violation a taskspec.v1.Problem carries,
// as Proto wrote it. A nil problem is the zero Violation; an unspecified
// severity reads as an error, since a problem that says nothing else
// refuses.
func ViolationFromProto(p *taskspecv1.Problem) Violation {
	if p == nil {
		return Violation{}
	}
	sev := SeverityError
	if p.GetSeverity() == taskspecv1.Severity_SEVERITY_WARNING {
		sev = SeverityWarning
	}
	return Violation{
		FieldPath: p.GetFieldPath(), Message: p.GetMessage(), Line: int(p.GetLine()), Column: int(p.GetColumn()),
		Code: Code(p.GetCode()), Hint: p.GetHint(), Severity: sev, Fix: fixFromProto(p.GetFix()),
	}
}

func clampInt32(n int) int32 {
	return int32(max(min(n, math.MaxInt32), math.MinInt32))
}

// A ValidationError reports a spec that breaks the contract. Violations
// holds every broken rule, in the order [Validate] checks them; Error
// returns the first one's message, the eval package's words, after
// "taskspec: ", and how many more there are: "taskspec: task_id is
// required (and 2 more problems)".
//
// The [*DecodeError] of a document whose problems include broken rules
// wraps one: errors.As finds a ValidationError whatever else is wrong with
// the document.
type ValidationError struct {
	Violations []Violation
}

// Error returns the first violation's message after "taskspec: ", then
// " (and N more problems)" when there are more.
func (e *ValidationError) Error() string {
	if len(e.Violations) == 0 {
		return errPrefix + "invalid task spec"
	}
	return errPrefix + e.Violations[0].Message + andMore(len(e.Violations)-1)
}

// ruleValue is a field's value as a rule looks at it: num for an integer
// and for a list's length, with items the list; text for a string, a
// list's item and an enum's spelling, with defined the enum's test of a
// spelling.
type ruleValue struct {
	num     int64
	text    string
	items   []string
	defined func(string) bool
}

// A constraint is a kind of constraint, as the table constraints
// (contract_gen.go) lists it: its full name, its code, whether the value
// its messages show is text (a string, an item, an enum's spelling) rather
// than a number (an integer, a list's length), and its Go implementation
// (constraints.go), which reports whether a value keeps it given its bound.
type constraint struct {
	name  string // "taskspec.v1.StringRules.max_len"
	code  Code
	text  bool
	keeps func(v ruleValue, bound int64) bool
}

// A rule is one constraint on one field, read from a field's
// (taskspec.v1.field).rules by protoc-gen-taskspec-go into the table rules
// (contract_gen.go), in the Go package's order.
type rule struct {
	path    string     // the field, as its YAML path
	kind    constraint // the kind's entry of constraints
	bound   int64      // a Bound's value; 0 for a Demand
	message string     // the Go package's wording: a format of the value, then the bound
	args    int        // how many of the value and the bound message shows
	// item is set for the rules of RepeatedRules.items: the rule applies to
	// each item of the list, reported at the item's path ("field[2]").
	item bool
	// ignoreZero is FieldRules.ignore's IGNORE_IF_ZERO_VALUE: the rule
	// applies only when the field holds more than its zero value ("", 0, no
	// enum text, no items), so a field left out is not checked.
	ignoreZero bool
	// mirror and proto read the field's value from a decoded document (enum
	// text as written) and from a message (enum text as spelled, or the
	// digits of an undefined number).
	mirror func(*eval.TaskSpec) ruleValue
	proto  func(*taskspecv1.TaskSpec) ruleValue
}

// keeps reports whether v keeps the rule: a rule that applies only when its
// field is set keeps the zero value.
func (r *rule) keeps(v ruleValue) bool {
	if r.ignoreZero && v.num == 0 && v.text == "" {
		return true
	}
	return r.kind.keeps(v, r.bound)
}

func (r *rule) violation(path string, v ruleValue) Violation {
	var value any = v.num
	if r.kind.text {
		value = v.text
	}
	msg := fmt.Sprintf(r.message, []any{value, r.bound}[:r.args]...)
	return Violation{FieldPath: path, Message: msg, Code: r.kind.code, Severity: SeverityError}
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
// verification.test_cmd, verification.timeout_seconds) and, within a
// field, the declaration order of its constraints; the rules of a list's
// items come item by item, each item's in that order. Nothing else is
// checked; in particular an empty solution artifact path and an empty
// kg_query are valid, and no file or symbol is looked up.
func check(c *checked) []Violation {
	var out []Violation
	for i := 0; i < len(rules); i++ {
		r := &rules[i]
		var v ruleValue
		if c.mirror != nil {
			v = r.mirror(c.mirror)
		} else {
			v = r.proto(c.proto)
		}
		if !r.item {
			if !r.keeps(v) {
				out = append(out, r.violation(r.path, v))
			}
			continue
		}
		// The item rules of one field follow each other: item by item.
		end := i + 1
		for end < len(rules) && rules[end].item && rules[end].path == r.path {
			end++
		}
		group := rules[i:end]
		i = end - 1
		for j, item := range v.items {
			iv := ruleValue{text: item}
			for k := range group {
				if g := &group[k]; !g.kind.keeps(iv, g.bound) {
					out = append(out, g.violation(fmt.Sprintf("%s[%d]", r.path, j), iv))
				}
			}
		}
	}
	return out
}

// Violations returns every rule spec breaks, in a fixed order, or nil when
// it is valid: the Violations of the [*ValidationError] that [Validate]
// returns. An enum number the
// schema does not define is reported by its digits (invalid language "7").
// A nil spec is checked as an empty one, as the generated getters read it.
//
// After the rules come the two checks that make a valid spec portable, so
// that it can be saved, read back and sent in either language: every
// string (field, list item, map key) is UTF-8 (TS106), and the spec's
// canonical YAML is within MaxDocumentBytes (TS107).
func Violations(spec *taskspecv1.TaskSpec) []Violation {
	return append(check(checkedFromProto(spec)), portability(spec)...)
}

// Validate checks spec against the contract and returns nil or a
// [*ValidationError] whose message is the first broken rule's (use
// errors.As to get all of them). It does not check that referenced files
// or symbols exist: that is a downstream, I/O-bearing concern.
func Validate(spec *taskspecv1.TaskSpec) error {
	if vs := Violations(spec); len(vs) > 0 {
		return &ValidationError{Violations: vs}
	}
	return nil
}

// SignalKeys returns the difficulty-signal keys in plain byte order
// (sort.Strings), for callers that need a stable iteration order. It is never nil. Note that it is not the order in
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
