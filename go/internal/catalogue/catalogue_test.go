package catalogue_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taskspec/taskspec/go/internal/catalogue"
)

func ExampleForm_Render() {
	fmt.Println(catalogue.HintUnknownKeyDidYouMean.Render(catalogue.Args{"key": `"task_id"`}))
	fmt.Println(catalogue.MsgUnclosedFlowMapping.Render(nil))
	// Output:
	// did you mean "task_id"?
	// invalid YAML: a { mapping is not closed with }
}

func TestRender(t *testing.T) {
	for _, c := range []struct {
		text string
		args catalogue.Args
		want string
	}{
		{"{path}: {reason}", catalogue.Args{"path": "a.b", "reason": "no {reason} inside"}, "a.b: no {reason} inside"},
		{"{ x } and {}", catalogue.Args{"x": "y"}, "{ x } and {}"},
		{"{missing} stays", nil, "{missing} stays"},
		{"ends with {", nil, "ends with {"},
		{"{a}{b}", catalogue.Args{"a": "1", "b": "2"}, "12"},
		{"{A} is not a name", catalogue.Args{"A": "x"}, "{A} is not a name"},
	} {
		if got := (catalogue.Form{Text: c.text}).Render(c.args); got != c.want {
			t.Errorf("Render(%q, %v) = %q, want %q", c.text, c.args, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	form, ok := catalogue.Match(catalogue.YAMLv3Problems, "yaml: line 3: did not find expected ',' or ']'")
	if !ok || form != catalogue.MsgUnclosedFlowList {
		t.Errorf("Match = %+v, %v", form, ok)
	}
	if _, ok := catalogue.Match(catalogue.YAMLv3Problems, "something else"); ok {
		t.Error("Match found a row for a text no phrase is in")
	}
}

func TestPieces(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"unsupported tag {tag} for a string field", []string{"unsupported tag ", " for a string field"}},
		{"'?' in {value} inside [] or {}: no", []string{"'?' in ", " inside [] or {}: no"}},
		{"no arguments", []string{"no arguments"}},
		{"{a}{b}", []string{"", "", ""}},
	} {
		got := catalogue.Form{Text: c.text}.Pieces()
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("Pieces(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
