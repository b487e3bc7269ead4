package yaml

import (
	"errors"
	"fmt"
	"testing"
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

// TestBudgetsRefuseTheFirstNodePastThem reads each vector at its exact
// size and depth, and refuses it one node below its size and one level
// below its depth, with the budget's words.
func TestBudgetsRefuseTheFirstNodePastThem(t *testing.T) {
	f := loadFixture(t)
	checked := 0
	for _, file := range f.Files {
		data := fileData(t, file.Name)
		doc, err := Parse(data, Options{})
		if err != nil || doc.Root == nil {
			continue
		}
		nodes, depth := treeSize(doc.Root)
		if _, err := Parse(data, Options{MaxNodes: nodes, MaxDepth: depth}); err != nil {
			t.Errorf("%s: refused at its own size (%d nodes, %d levels): %v", file.Name, nodes, depth, err)
		}
		for _, c := range []struct {
			opts Options
			want string
		}{
			{Options{MaxNodes: nodes - 1, MaxDepth: depth}, fmt.Sprintf("document has more than %d nodes", nodes-1)},
			{Options{MaxNodes: 2*len(data) + 1, MaxDepth: depth - 1}, fmt.Sprintf("document is nested deeper than %d levels", depth-1)},
		} {
			if c.opts.MaxNodes < 1 || c.opts.MaxDepth < 1 {
				continue
			}
			_, err := Parse(data, c.opts)
			var e *Error
			if !errors.As(err, &e) || e.Kind != BudgetError || e.Problem != c.want {
				t.Errorf("%s %+v: %v, want %q", file.Name, c.opts, err, c.want)
				continue
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("only %d refusals checked", checked)
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
