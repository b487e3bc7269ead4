package taskspec_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

// base is a valid sidecar whose test_cmd, signals and trailer a test
// replaces.
func base(testCmd, signals, trailer string) []byte {
	return []byte("task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n" +
		"difficulty_signals:\n" + signals +
		"generated_from:\n    kind: kg_template\nprompt: p\nverification:\n    test_cmd: " + testCmd + "\n" + trailer)
}

func strictOf(t *testing.T, err error) *taskspec.StrictError {
	t.Helper()
	var strict *taskspec.StrictError
	if !errors.As(err, &strict) {
		t.Fatalf("want a *StrictError, got %v", err)
	}
	return strict
}

func TestNodeBudgetRefusesTheFirstNodePastIt(t *testing.T) {
	items := strings.Repeat("x, ", taskspec.MaxNodes) + "x"
	_, err := taskspec.ParseYAML(base("["+items+"]", "    a: 1\n", ""))
	s := strictOf(t, err)
	want := fmt.Sprintf("document has more than %d nodes", taskspec.MaxNodes)
	// 22 nodes come before test_cmd's sequence, the 23rd: the node past the
	// budget is its item number MaxNodes-22, on line 11.
	if s.Reason != want || s.Line != 11 || s.Column != 16+3*(taskspec.MaxNodes-23) {
		t.Errorf("got %+v", s)
	}
}

func TestNodeBudgetIsExactAtTheBound(t *testing.T) {
	// 22 nodes before the sequence, the sequence itself, then its items.
	n := taskspec.MaxNodes - 23
	spec, err := taskspec.ParseYAML(base("["+strings.Repeat("x, ", n-1)+"x]", "    a: 1\n", ""))
	if err != nil || len(spec.GetVerification().GetTestCmd()) != n {
		t.Fatalf("at the bound: %v", err)
	}
	_, err = taskspec.ParseYAML(base("["+strings.Repeat("x, ", n)+"x]", "    a: 1\n", ""))
	strictOf(t, err)
}

func TestDepthBudgetRefusesTheFirstCollectionPastIt(t *testing.T) {
	// The root mapping is the first level, so the 64th "[" is one too many.
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	_, err := taskspec.ParseYAML(base("[x]", "    a: 1\n", "extra: "+deep+"\n"))
	s := strictOf(t, err)
	if s.Reason != fmt.Sprintf("document is nested deeper than %d levels", taskspec.MaxDepth) || s.Line != 12 || s.Column != 7+taskspec.MaxDepth {
		t.Errorf("got %+v", s)
	}
}

func TestLargeSignalMapsDecodeWithoutYAMLv3sQuadraticCheck(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "    s%d: %d\n", i, i)
	}
	spec, err := taskspec.ParseYAML(base("[x]", b.String(), ""))
	if err != nil {
		t.Fatal(err)
	}
	sig := spec.GetDifficultySignals()
	if len(sig) != 5000 || sig["s4999"] != 4999 || sig["s0"] != 0 {
		t.Errorf("decoded %d signals, s4999=%d", len(sig), sig["s4999"])
	}
}

// TestLargeMappingsGiveEveryProblem holds the mappings too large for
// yaml.v3's quadratic duplicate check to the same problems as small ones:
// one per duplicate key, unknown key or value of the wrong type, each at
// its place.
func TestLargeMappingsGiveEveryProblem(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "    s: %d\n", i)
	}
	_, err := taskspec.ParseYAML(base("[x]", b.String(), ""))
	var de *taskspec.DecodeError
	if !errors.As(err, &de) || len(de.Violations) != 2999 ||
		de.Violations[0].String() != `line 7, column 5: difficulty_signals["s"]: duplicate key "s" (first defined at line 6)` ||
		de.Violations[2998].Line != 3005 || de.Violations[0].Code != "TS002" {
		t.Fatalf("got %v", err)
	}

	b.Reset()
	for i := range 3000 {
		fmt.Fprintf(&b, "k%d: 1\n", i)
	}
	_, err = taskspec.ParseYAML(base("[x]", "    a: 1\n", b.String()))
	if !errors.As(err, &de) || len(de.Violations) < 3000 || de.Violations[2999].Message != `k2999: unknown field "k2999"` || de.Code != "TS001" ||
		de.Violations[0].Message != `k0: unknown field "k0"` || de.Violations[0].Line != 12 {
		t.Fatalf("got %v", err)
	}

	b.Reset()
	for i := range 3000 {
		fmt.Fprintf(&b, "    s%d: x%d\n", i, i)
	}
	_, err = taskspec.ParseYAML(base("[x]", b.String(), ""))
	if !errors.As(err, &de) || len(de.Violations) != 3000 || de.Code != "TS003" ||
		de.Violations[0].String() != `line 6, column 9: difficulty_signals["s0"]: expected an integer, got the string "x0"` {
		t.Fatalf("got %v", err)
	}
}

func TestAnAliasedKeyRepeatingAnotherIsRefused(t *testing.T) {
	doc := base("[x]", "    &k edge_count: 9\n    *k : 3\n", "")
	s := strictOf(t, taskspecErr(taskspec.ParseYAML(doc)))
	want := taskspec.StrictError{FieldPath: `difficulty_signals["edge_count"]`, Line: 7, Column: 10,
		Reason: `duplicate key "edge_count" (first defined at line 6)`}
	if *s != want {
		t.Errorf("got %+v, want %+v", *s, want)
	}
}

func TestAnAliasBombIsRefusedByTheWalksBudget(t *testing.T) {
	// Each level is a list of ten aliases of the one before: 10^6 strings.
	var b strings.Builder
	b.WriteString("    l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "    l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	doc := "task_spec_version: 1\nverification:\n    test_cmd: *l6\n    build_cmd: *l6\nx:\n" + b.String()
	_, err := taskspec.ParseYAML([]byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
}

func TestASecondDocumentIsFoundAfterALongTailOfComments(t *testing.T) {
	comments := strings.Repeat("# a comment line that is long enough to matter\n", 4000)
	if _, err := taskspec.ParseYAML(base("[x]", "    a: 1\n", comments)); err != nil {
		t.Fatalf("a tail of comments: %v", err)
	}
	doc := base("[x]", "    a: 1\n", comments+"---\n["+strings.Repeat("x, ", 50000)+"x]\n")
	s := strictOf(t, taskspecErr(taskspec.ParseYAML(doc)))
	if !strings.HasPrefix(s.Reason, "more than one YAML document") || s.Line != 12+4000 {
		t.Errorf("got %+v", s)
	}
}

func taskspecErr[T any](_ T, err error) error { return err }

// A byte order mark at a line start just past where the text is cut at
// the depth bound. (An input the differential fuzzer found, on which the
// Go library once panicked.) Every mark past the start is refused before
// anything is read, the depth included.
func TestABOMPastWhereTheTextIsCutAtTheDepthBound(t *testing.T) {
	doc, err := os.ReadFile("../tests/data/fuzz/bom-at-depth-cut.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := taskspec.ParseYAML(doc); err == nil || !strings.Contains(err.Error(), "byte order mark at the start of a line") {
		t.Fatalf("got %v, want the mark's refusal", err)
	}
}
