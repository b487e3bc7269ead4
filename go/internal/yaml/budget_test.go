package yaml

import (
	"errors"
	"fmt"
	"testing"

	"github.com/taskspec/taskspec/go/internal/budget"
)

// treeSize is the number of nodes of the document rooted at doc, aliases
// once, and how deep its collections nest.
func treeSize(doc *Node) (nodes, depth int) {
	var walk func(n *Node, d int)
	walk = func(n *Node, d int) {
		nodes++
		if n.Kind == SequenceNode || n.Kind == MappingNode {
			d++
			depth = max(depth, d)
		}
		if n.Kind != AliasNode {
			for _, c := range n.Content {
				walk(c, d)
			}
		}
	}
	walk(doc.Content[0], 0)
	return nodes, depth
}

// TestBudgetsAsTheLibraryCounts refuses each vector at one node below its
// size and one level below its depth, and compares the refusal (place and
// words) with the library's budget package on yaml.v3's tree of the same
// text; at its exact size and depth the vector is read.
func TestBudgetsAsTheLibraryCounts(t *testing.T) {
	f := loadFixture(t)
	checked := 0
	for _, file := range f.Files {
		data := fileData(t, file.Name)
		doc, err := Parse(data, Options{})
		if err != nil || doc.Root == nil || compare(data) != "" {
			continue
		}
		theirs, _, err := readV3(data, doc.Next != nil)
		if err != nil {
			t.Fatal(err)
		}
		nodes, depth := treeSize(doc.Root)
		if _, err := Parse(data, Options{MaxNodes: nodes, MaxDepth: depth}); err != nil {
			t.Errorf("%s: refused at its own size (%d nodes, %d levels): %v", file.Name, nodes, depth, err)
		}
		for _, l := range []budget.Limits{{Nodes: nodes - 1, Depth: depth}, {Nodes: 2*len(data) + 1, Depth: depth - 1}} {
			if l.Nodes < 1 || l.Depth < 1 {
				continue
			}
			want := budget.Check(data, theirs, l)
			_, err := Parse(data, Options{MaxNodes: l.Nodes, MaxDepth: l.Depth})
			var e *Error
			if !errors.As(err, &e) || e.Kind != BudgetError || want == nil {
				t.Errorf("%s %+v: %v; the budget package's %+v", file.Name, l, err, want)
				continue
			}
			got := fmt.Sprintf("%d:%d %s", e.ProblemMark.Line+1, e.ProblemMark.Column+1, e.Problem)
			if exp := fmt.Sprintf("%d:%d %s", want.Line, want.Column, want.Reason); got != exp {
				t.Errorf("%s %+v: refused at %s; the budget package at %s", file.Name, l, got, exp)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("only %d refusals compared", checked)
	}
}

// TestBudgetStopsReading: a text past a budget is refused at the first
// node past it, before a syntax error later in the text.
func TestBudgetStopsReading(t *testing.T) {
	data := []byte("[[[[a]]]], b, c, d]\n}}}")
	_, err := Parse(data, Options{MaxDepth: 3})
	var e *Error
	if !errors.As(err, &e) || e.Kind != BudgetError || e.ProblemMark.Column != 3 ||
		e.Problem != "document is nested deeper than 3 levels" {
		t.Fatalf("got %v", err)
	}
	_, err = Parse([]byte("[a, b, c, d, e, f\n}}}"), Options{MaxNodes: 4})
	if !errors.As(err, &e) || e.Kind != BudgetError || e.ProblemMark.Column != 10 ||
		e.Problem != "document has more than 4 nodes" {
		t.Fatalf("got %v", err)
	}
}
