package taskspec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// Every kind of constraint options.proto declares has its Go
// implementation in the table constraints, with its declared code, and the
// table lists nothing else. (protoc-gen-taskspec-go writes the table from
// the same declarations, naming each kind's function, so a kind without
// one does not compile; this test holds the table to the compiled
// descriptors.)
func TestEveryDeclaredKindHasAnImplementation(t *testing.T) {
	declared := declaredConstraints()
	if len(declared) == 0 {
		t.Fatal("options.proto declares no kind of constraint")
	}
	for _, f := range declared {
		decl := proto.GetExtension(f.Options(), taskspecv1.E_Constraint).(*taskspecv1.ConstraintKind)
		c, ok := constraints[string(f.FullName())]
		switch {
		case !ok || c.keeps == nil:
			t.Errorf("%s has no Go implementation in constraints.go", f.FullName())
		case c.name != string(f.FullName()):
			t.Errorf("%s: its entry is named %s", f.FullName(), c.name)
		case c.code != Code(fmt.Sprintf("TS%03d", decl.GetCode())):
			t.Errorf("%s: code %s, declared %d", f.FullName(), c.code, decl.GetCode())
		}
		if _, ok := LookupProblem(c.code); !ok {
			t.Errorf("%s: code %s is not in the catalogue", f.FullName(), c.code)
		}
	}
	if len(constraints) != len(declared) {
		t.Errorf("constraints lists %d kinds, options.proto declares %d", len(constraints), len(declared))
	}
	for _, r := range rules {
		if c, ok := constraints[r.kind.name]; !ok || c.code != r.kind.code {
			t.Errorf("rule on %s: kind %s, code %s: not a declared kind with that code", r.path, r.kind.name, r.kind.code)
		}
	}
}

// constraintSample is one entry of the "constraints" list of
// testdata/validate_rules.json: a value of a kind's sample set, from the
// Python implementation (taskspec/_constraints.py), and whether it breaks
// the kind with that bound.
type constraintSample struct {
	Kind   string          `json:"kind"`
	Bound  *json.Number    `json:"bound"`
	Value  json.RawMessage `json:"value"`
	Breaks *bool           `json:"breaks"`
	// WhenSet: the constraint applies only when the field is set
	// (FieldRules.ignore IGNORE_IF_ZERO_VALUE), as a rule marked ignoreZero.
	WhenSet bool `json:"when_set"`
}

// The Go implementation of each kind agrees with the Python one on every
// sample the rule cases list for it. The list comes from `make vectors`;
// until the file has it the test is skipped, and once it has it, every
// declared kind must be sampled.
func TestConstraintSamplesAgreeWithPython(t *testing.T) {
	raw, err := os.ReadFile(filepath.FromSlash("testdata/validate_rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Constraints *[]constraintSample `json:"constraints"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&file); err != nil {
		t.Fatal(err)
	}
	if file.Constraints == nil {
		t.Skip(`testdata/validate_rules.json has no "constraints" list yet: run make vectors`)
	}
	checkConstraintSamples(t, *file.Constraints)
}

func checkConstraintSamples(t *testing.T, samples []constraintSample) {
	t.Helper()
	sampled := map[string]map[bool]bool{}
	whenSet := map[string]bool{}
	for i, s := range samples {
		c, ok := constraints[s.Kind]
		if !ok {
			t.Errorf("constraints[%d]: kind %q is not declared", i, s.Kind)
			continue
		}
		if s.Breaks == nil {
			t.Errorf("constraints[%d] (%s): no breaks", i, s.Kind)
			continue
		}
		var bound int64
		if s.Bound != nil {
			var err error
			if bound, err = s.Bound.Int64(); err != nil {
				t.Errorf("constraints[%d] (%s): bound %s: %v", i, s.Kind, *s.Bound, err)
				continue
			}
		}
		v, err := sampleValue(s.Kind, s.Value)
		if err != nil {
			t.Errorf("constraints[%d] (%s): value %s: %v", i, s.Kind, s.Value, err)
			continue
		}
		r := rule{kind: c, bound: bound, ignoreZero: s.WhenSet}
		if keeps := r.keeps(v); keeps == *s.Breaks {
			t.Errorf("constraints[%d]: %s with bound %d (when set: %v): Go says breaks=%v for %s, Python %v",
				i, s.Kind, bound, s.WhenSet, !keeps, s.Value, *s.Breaks)
		}
		if s.WhenSet {
			whenSet[s.Kind] = true
			continue
		}
		if sampled[s.Kind] == nil {
			sampled[s.Kind] = map[bool]bool{}
		}
		sampled[s.Kind][*s.Breaks] = true
	}
	for _, f := range declaredConstraints() {
		if got := sampled[string(f.FullName())]; !got[true] || !got[false] {
			t.Errorf("%s: the samples lack a value that breaks it or one that keeps it", f.FullName())
		}
		if !whenSet[string(f.FullName())] {
			t.Errorf("%s: no sample of it applying only when set", f.FullName())
		}
	}
}

// sampleValue is a sample's value as the kind's rules message sees it: a
// string (StringRules; EnumRules, spelling a taskspec.v1.Language), an
// integer (Int64Rules) or a list of strings (RepeatedRules).
func sampleValue(kind string, raw json.RawMessage) (ruleValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out ruleValue
	switch {
	case strings.HasPrefix(kind, "taskspec.v1.StringRules."), strings.HasPrefix(kind, "taskspec.v1.EnumRules."):
		var s string
		if err := dec.Decode(&s); err != nil {
			return out, err
		}
		out = ruleValue{text: s}
		if strings.HasPrefix(kind, "taskspec.v1.EnumRules.") {
			out.defined = languageEnum.valid
		}
	case strings.HasPrefix(kind, "taskspec.v1.Int64Rules."):
		var n json.Number
		if err := dec.Decode(&n); err != nil {
			return out, err
		}
		i, err := n.Int64()
		if err != nil {
			return out, err
		}
		out = ruleValue{num: i}
	case strings.HasPrefix(kind, "taskspec.v1.RepeatedRules."):
		var items []string
		if err := dec.Decode(&items); err != nil {
			return out, err
		}
		out = ruleValue{num: int64(len(items)), items: items}
	default:
		return out, fmt.Errorf("no sample reader for the rules message of %s", kind)
	}
	return out, nil
}

// withRules runs f with extra rules after the contract's, as a field's
// rules would add them: today's contract sets no item rule and none of
// the kinds added after v1's first release.
func withRules(t *testing.T, extra []rule, f func()) {
	t.Helper()
	saved := rules
	defer func() { rules = saved }()
	rules = append(slices.Clone(saved), extra...)
	f()
}

func testCmdRule(kind, message string, bound int64, args int, item bool) rule {
	return rule{
		path: "verification.test_cmd", kind: constraints[kind], bound: bound,
		message: message, args: args, item: item,
		mirror: func(m *eval.TaskSpec) ruleValue {
			return ruleValue{num: int64(len(m.Verification.TestCmd)), items: m.Verification.TestCmd}
		},
		proto: func(m *taskspecv1.TaskSpec) ruleValue {
			cmd := m.GetVerification().GetTestCmd()
			return ruleValue{num: int64(len(cmd)), items: cmd}
		},
	}
}

// The rules of a list's items apply item by item, each item's rules in
// their order, at the item's path; in a document, at the item's position.
func TestItemRulesApplyItemByItem(t *testing.T) {
	extra := []rule{
		testCmdRule("taskspec.v1.RepeatedRules.max_items", "at most %[2]d arguments, got %[1]d", 2, 2, false),
		testCmdRule("taskspec.v1.StringRules.not_blank", "blank argument %q", 0, 1, true),
		testCmdRule("taskspec.v1.StringRules.max_len", "argument %q is longer than %d", 3, 2, true),
	}
	render := func(vs []Violation) string {
		var out []string
		for _, v := range vs {
			out = append(out, fmt.Sprintf("%s %s %d:%d %s", v.Code, v.FieldPath, v.Line, v.Column, v.Message))
		}
		return strings.Join(out, "\n")
	}
	withRules(t, extra, func() {
		spec := &taskspecv1.TaskSpec{
			TaskSpecVersion: 1, TaskId: "t-1", Language: taskspecv1.Language_LANGUAGE_GO,
			Difficulty:    taskspecv1.Difficulty_DIFFICULTY_EASY,
			GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE},
			Prompt:        "Fix it.",
			Verification:  &taskspecv1.Verification{TestCmd: []string{"go", " ", "tést", "vet"}},
		}
		want := strings.Join([]string{
			`TS112 verification.test_cmd 0:0 at most 2 arguments, got 4`,
			`TS101 verification.test_cmd[1] 0:0 blank argument " "`,
			`TS109 verification.test_cmd[2] 0:0 argument "tést" is longer than 3`,
		}, "\n")
		if got := render(Violations(spec)); got != want {
			t.Errorf("Violations =\n%s\nwant\n%s", got, want)
		}
		doc := "task_spec_version: 1\ntask_id: t-1\nlanguage: go\ndifficulty: easy\n" +
			"generated_from:\n  kind: kg_template\nprompt: Fix it.\nverification:\n" +
			"  test_cmd:\n    - go\n    - \" \"\n    - tést\n    - vet\n"
		want = strings.Join([]string{
			`TS112 verification.test_cmd 10:5 at most 2 arguments, got 4`,
			`TS101 verification.test_cmd[1] 11:7 blank argument " "`,
			`TS109 verification.test_cmd[2] 12:7 argument "tést" is longer than 3`,
		}, "\n")
		if got := render(Check([]byte(doc))); got != want {
			t.Errorf("Check =\n%s\nwant\n%s", got, want)
		}
	})
}

// The catalogue holds the entry of each kind whose code is not a
// ProblemCode value, named after the constraint's field, among the
// ProblemCode values' entries in numeric order.
func TestTheCatalogueHasTheDeclaredKindsEntries(t *testing.T) {
	codes := Codes()
	if !slices.IsSorted(codes) {
		t.Errorf("Codes() is not in numeric order: %v", codes)
	}
	for _, f := range declaredConstraints() {
		decl := proto.GetExtension(f.Options(), taskspecv1.E_Constraint).(*taskspecv1.ConstraintKind)
		code := Code(fmt.Sprintf("TS%03d", decl.GetCode()))
		k, ok := LookupProblem(code)
		if !ok || !slices.Contains(codes, code) {
			t.Errorf("%s: %s is not in the catalogue", f.FullName(), code)
			continue
		}
		if decl.GetProblem() == nil {
			continue // a ProblemCode value's entry
		}
		if k.Name != string(f.Name()) || k.Title != decl.GetProblem().GetTitle() || k.Severity != SeverityError {
			t.Errorf("%s: entry %+v", code, k)
		}
		text, _ := Explain(code)
		if !strings.HasPrefix(text, fmt.Sprintf("%s (%s): %s\n", code, f.Name(), k.Title)) {
			t.Errorf("Explain(%s) = %q", code, text)
		}
	}
}

// A rule with FieldRules.ignore IGNORE_IF_ZERO_VALUE applies only when its
// field holds more than its zero value: "at least 1 when present" passes a
// field left out and refuses 0 nowhere, yet still refuses -1. The Python
// library's rules do the same (tests/test_constraints.py).
func TestARuleThatIgnoresTheZeroValueSkipsIt(t *testing.T) {
	saved := rules
	t.Cleanup(func() { rules = saved })
	rules = []rule{{
		path:       "verification.timeout_seconds",
		kind:       constraints["taskspec.v1.Int64Rules.at_least"],
		bound:      1,
		message:    "timeout_seconds %d is below %d",
		args:       2,
		ignoreZero: true,
		mirror:     func(m *eval.TaskSpec) ruleValue { return ruleValue{num: int64(m.Verification.TimeoutSeconds)} },
		proto: func(m *taskspecv1.TaskSpec) ruleValue {
			return ruleValue{num: m.GetVerification().GetTimeoutSeconds()}
		},
	}}
	for _, tc := range []struct {
		value int64
		want  int
	}{{0, 0}, {1, 0}, {-1, 1}} {
		spec := &taskspecv1.TaskSpec{Verification: &taskspecv1.Verification{TimeoutSeconds: tc.value}}
		if got := check(checkedFromProto(spec)); len(got) != tc.want {
			t.Errorf("timeout_seconds %d: %d violations %v, want %d", tc.value, len(got), got, tc.want)
		}
		mirror := &eval.TaskSpec{}
		mirror.Verification.TimeoutSeconds = int(tc.value)
		if got := check(checkedFromMirror(mirror)); len(got) != tc.want {
			t.Errorf("decoded timeout_seconds %d: %d violations %v, want %d", tc.value, len(got), got, tc.want)
		}
	}
	rules[0].ignoreZero = false
	if got := check(checkedFromProto(&taskspecv1.TaskSpec{})); len(got) != 1 {
		t.Errorf("without ignoreZero, a field left out gives %v, want one violation", got)
	}
}
