package taskspec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	taskspec "github.com/taskspec/taskspec/go"
)

// testdata/validate_rules.json is generated from the Python library's rule
// table (python/taskspec/_rules.py), the one list of Validate's rules with
// their order and wording, by `make vectors`; the Python tests
// fail when the file is not what the table generates. Each case is a valid base document with edits and the
// violations Validate must report for it, so this test fails whenever the Go
// rules and the table disagree: a rule missing, added, reordered or worded
// differently on either side.
const ruleCasesFile = "testdata/validate_rules.json"

type ruleEdit struct {
	Path   []any `json:"path"`
	Value  any   `json:"value"`
	Delete bool  `json:"delete"`
}

type ruleViolation struct {
	Path    string        `json:"path"`
	Message string        `json:"message"`
	Code    taskspec.Code `json:"code"`
}

type ruleCase struct {
	Name       string          `json:"name"`
	Edits      []ruleEdit      `json:"edits"`
	Violations []ruleViolation `json:"violations"`
}

type ruleCases struct {
	Rules []ruleViolation `json:"rules"` // path and Go format string, in Validate's order
	Base  json.RawMessage `json:"base"`
	Cases []ruleCase      `json:"cases"`
}

// decodeJSON keeps numbers as json.Number, so that int64 bounds survive.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func loadRuleCases(t *testing.T) ruleCases {
	t.Helper()
	raw, err := os.ReadFile(filepath.FromSlash(ruleCasesFile))
	if err != nil {
		t.Fatal(err)
	}
	var rc ruleCases
	if err := decodeJSON(raw, &rc); err != nil {
		t.Fatal(err)
	}
	if len(rc.Rules) == 0 || len(rc.Cases) == 0 {
		t.Fatalf("%s lists no rules or no cases", ruleCasesFile)
	}
	return rc
}

// applyEdit sets or deletes the value at e.Path (map keys and list indices).
func applyEdit(doc any, e ruleEdit) error {
	if len(e.Path) == 0 {
		return errors.New("empty edit path")
	}
	target := doc
	for _, step := range e.Path[:len(e.Path)-1] {
		next, err := child(target, step)
		if err != nil {
			return err
		}
		target = next
	}
	last := e.Path[len(e.Path)-1]
	switch node := target.(type) {
	case map[string]any:
		key, ok := last.(string)
		if !ok {
			return fmt.Errorf("key %v of a mapping is not a string", last)
		}
		// A key the base leaves out (an optional field) is set by adding
		// it; leaving it out again changes nothing.
		if e.Delete {
			delete(node, key)
		} else {
			node[key] = e.Value
		}
		return nil
	case []any:
		i, err := index(last, len(node))
		if err != nil {
			return err
		}
		if e.Delete {
			return errors.New("deleting a list item is not an edit the cases use")
		}
		node[i] = e.Value
		return nil
	}
	return fmt.Errorf("cannot edit inside %T", target)
}

func child(node any, step any) (any, error) {
	switch n := node.(type) {
	case map[string]any:
		key, ok := step.(string)
		if !ok {
			return nil, fmt.Errorf("key %v of a mapping is not a string", step)
		}
		next, ok := n[key]
		if !ok {
			return nil, fmt.Errorf("the base has no key %q", key)
		}
		return next, nil
	case []any:
		i, err := index(step, len(n))
		if err != nil {
			return nil, err
		}
		return n[i], nil
	}
	return nil, fmt.Errorf("cannot step into %T", node)
}

func index(step any, n int) (int, error) {
	num, ok := step.(json.Number)
	if !ok {
		return 0, fmt.Errorf("index %v of a list is not a number", step)
	}
	i, err := strconv.Atoi(num.String())
	if err != nil || i < 0 || i >= n {
		return 0, fmt.Errorf("index %v out of range", step)
	}
	return i, nil
}

// asciiJSON writes v as JSON with every non-ASCII character escaped, so that
// the document reads the same to every YAML reader: a raw U+0085 or U+2028
// would be a line break to YAML 1.1.
func asciiJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, r := range string(raw) {
		if r < 0x80 {
			out.WriteRune(r)
			continue
		}
		for _, unit := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&out, `\u%04x`, unit)
		}
	}
	return out.Bytes(), nil
}

func (c ruleCase) document(t *testing.T, base []byte) []byte {
	t.Helper()
	var doc any
	if err := decodeJSON(base, &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Edits {
		if err := applyEdit(doc, e); err != nil {
			t.Fatalf("edit %v: %v", e.Path, err)
		}
	}
	data, err := asciiJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func withoutPositions(vs []taskspec.Violation) []ruleViolation {
	out := []ruleViolation{}
	for _, v := range vs {
		out = append(out, ruleViolation{Path: v.FieldPath, Message: v.Message, Code: v.Code})
	}
	return out
}

func TestValidateFollowsTheRuleTable(t *testing.T) {
	rc := loadRuleCases(t)
	for _, c := range rc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			doc := c.document(t, rc.Base)
			want := c.Violations
			if want == nil {
				want = []ruleViolation{}
			}
			var verr *taskspec.ValidationError
			_, err := taskspec.ParseYAML(doc)
			switch {
			case len(want) == 0 && err != nil:
				t.Fatalf("ParseYAML(%s) = %v, want no error", doc, err)
			case len(want) > 0 && !errors.As(err, &verr):
				t.Fatalf("ParseYAML(%s) = %v, want a *ValidationError", doc, err)
			case len(want) > 0:
				// ParseYAML lists them as Check does, in document order
				// after Go's first: the same set.
				got := withoutPositions(verr.Violations)
				sorted := slices.Clone(want)
				byPath := func(a, b ruleViolation) int { return strings.Compare(a.Path, b.Path) }
				slices.SortStableFunc(got, byPath)
				slices.SortStableFunc(sorted, byPath)
				if !reflect.DeepEqual(got, sorted) {
					t.Errorf("ParseYAML violations = %q\nwant %q", got, sorted)
				}
				if got, first := err.Error(), "taskspec: "+want[0].Message+moreProblems(len(verr.Violations)-1); got != first {
					t.Errorf("error = %q, want Go's first message %q", got, first)
				}
			}
			// The message path: the same rules, read from the proto. A
			// document whose enum text spells no value has no message.
			spec, err := taskspec.DecodeYAML(doc)
			if err != nil {
				if errors.As(err, &verr) && len(want) > 0 {
					return
				}
				t.Fatalf("DecodeYAML(%s) = %v", doc, err)
			}
			if got := withoutPositions(taskspec.Violations(spec)); !reflect.DeepEqual(got, want) {
				t.Errorf("Violations = %q\nwant %q", got, want)
			}
		})
	}
}

// Every rule of the table is broken by some case, and the cases report no
// path the table does not have, so that the cases cover the whole table.
func TestRuleCasesCoverTheTable(t *testing.T) {
	rc := loadRuleCases(t)
	broken := map[string]bool{}
	for _, c := range rc.Cases {
		for _, v := range c.Violations {
			field, _, _ := strings.Cut(v.Path, "[") // an item's rule reports the item
			broken[field] = true
		}
	}
	ruled := map[string]bool{}
	for _, r := range rc.Rules {
		ruled[r.Path] = true
	}
	for path := range ruled {
		if !broken[path] {
			t.Errorf("no case breaks the rules on %s", path)
		}
		delete(broken, path)
	}
	for path := range broken {
		t.Errorf("a case reports %s, which no rule checks", path)
	}
}
