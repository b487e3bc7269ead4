// Package budget owns the node and depth budgets of a YAML document,
// checked before anything costs much.
//
// A document may hold at most Limits.Nodes nodes (every scalar, alias,
// mapping and sequence, as a YAML parser's events count them) and nest at
// most Limits.Depth collections: the contract's MaxNodes and MaxDepth. The
// Python library counts libyaml's events; yaml.v3 is a port of libyaml
// and gives one node per event, so counting the nodes
// of yaml.v3's tree in document order finds the same first node past
// either bound, and both libraries report it at the same line and column
// with the same message.
//
// Counting a tree is cheap, but building it is not: yaml.v3 spends about a
// microsecond and several hundred bytes on each node, so a 10 MB flow
// sequence of five million scalars would cost seconds and gigabytes before
// the count could refuse it. So a document that might be over a bound is
// first scanned for where it goes over, and only the text before that
// point, with its open brackets closed, is given to yaml.v3: the nodes
// before the cut are the document's own nodes, so their count and
// positions are exact. The scan only chooses where to cut; if the cut text
// turns out to be within bounds, or does not parse, the whole document is
// parsed instead, so an imprecise scan can cost time but never change an
// answer.
//
// Check is its one entry point. The budget of alias expansions, which the
// schema walk spends as it follows aliases, is the walk's.
package budget

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// Limits are the budgets: the most nodes a document may hold and the most
// collections it may nest.
type Limits struct{ Nodes, Depth int }

// An Over is the first node of a document past a budget: where it is, in
// the tree it was found in, and the refusal, in the Python library's words.
type Over struct {
	Tree         *yaml.Node
	Line, Column int
	Reason       string
}

// Check returns the first node of the document data that takes it past
// l's nodes or levels, or nil. Aliases count once, where they are written.
// Called with doc nil, before the document is parsed, it parses only the
// text up to where a scan finds it over a bound, when that text parses
// (see cut), and the Over's tree is that text's; called with doc, the
// document's first document as parsed, it counts doc's nodes. Either way a
// document too small to be over a bound at any cost is not looked at.
func Check(data []byte, doc *yaml.Node, l Limits) *Over {
	if !l.MightExceed(data) {
		return nil
	}
	if doc != nil {
		return l.over(doc)
	}
	cut := l.cut(data)
	if cut == nil {
		return nil
	}
	if _, found := yamlscan.FirstControl(cut, len(cut)); found {
		return nil // yaml.v3 fails on it
	}
	var part yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(cut)).Decode(&part); err != nil {
		return nil
	}
	return l.over(&part)
}

// cheapDepthBound is the number of bytes, or of collection openers, below
// which a document cannot be nested past l.Depth in a way that costs
// anything to find (the Python library's _CHEAP_DEPTH_BOUND).
const cheapDepthBound = 1000

// MightExceed reports whether data could hold more than l.Nodes
// nodes or nest deeper than cheaply checked. Every node takes at least half
// a byte of source ({a,b} is two nodes in two bytes), and every level of
// nesting needs one of "[{-?". Check asks it first; a caller that checks
// one text twice may ask it once, and skip Check when it says no.
func (l Limits) MightExceed(data []byte) bool {
	if 2*len(data)+2 > l.Nodes {
		return true
	}
	if len(data) <= cheapDepthBound {
		return false
	}
	// One count per opener: bytes.Count is faster than one loop over
	// the text testing each byte against four.
	openers := 0
	for _, c := range [...]string{"[", "{", "-", "?"} {
		openers += bytes.Count(data, []byte(c))
		if openers > cheapDepthBound {
			return true
		}
	}
	return false
}

// over returns the first node of the document rooted at doc that takes it
// past l.Nodes nodes or l.Depth levels, or nil. Aliases count once, where
// they are written; their expansion is bounded by the walk.
func (l Limits) over(doc *yaml.Node) *Over {
	type frame struct {
		n     *yaml.Node
		depth int
	}
	budget := l.Nodes
	stack := make([]frame, 0, 64)
	for i := len(doc.Content) - 1; i >= 0; i-- {
		stack = append(stack, frame{doc.Content[i], 0})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		budget--
		depth := f.depth
		if f.n.Kind == yaml.MappingNode || f.n.Kind == yaml.SequenceNode {
			depth++
			if depth > l.Depth {
				return &Over{Tree: doc, Line: f.n.Line, Column: f.n.Column,
					Reason: fmt.Sprintf("document is nested deeper than %d levels", l.Depth)}
			}
		}
		if budget < 0 {
			return &Over{Tree: doc, Line: f.n.Line, Column: f.n.Column,
				Reason: fmt.Sprintf("document has more than %d nodes", l.Nodes)}
		}
		if f.n.Kind != yaml.AliasNode {
			for i := len(f.n.Content) - 1; i >= 0; i-- {
				stack = append(stack, frame{f.n.Content[i], depth})
			}
		}
	}
	return nil
}

// cut returns the start of data up to just past the first token
// at which the scan believes the document holds more than l.Nodes nodes
// or is nested deeper than l.Depth, with the flow collections open there
// closed (a ':' after one that is a key), or nil when the scan finds the
// document within bounds.
//
// The scan is a lexer for the parts of YAML that can make many nodes
// cheaply: flow collections, block sequence entries, keys, quoted and plain
// scalars. It skips comments, quoted scalars and block scalars, and it
// counts no more nodes than a parser would (a mapping or a sequence is
// counted only where its first entry is, an implicit null not at all), so
// that the cut, taken only after l.Nodes counted nodes, has at least as
// many real ones before it. A cut is made only where the text before it
// parses as it would in the whole document. What follows the cut does not
// matter: a syntax error there comes after the node past the bound in the
// text, and the bound is what the Go library reports (where libyaml's
// scanner, reading ahead, meets a syntax error first, the Python library
// stops there: both stop, see docs/problems.md).
// Where the cut does not parse (the first node past l.Depth can be an
// earlier opener than the cut's, as block collections and the single pairs
// inside [] or {} are levels too, with text that does not parse between
// them), the whole document is parsed, and yaml.v3's syntax error stands:
// the Python library stops too, at the bound or at a syntax problem.
func (l Limits) cut(data []byte) []byte {
	var (
		flow      []byte // the open flow collections, '[' or '{'
		nodes     int
		i         int
		lineStart = true
		indent    int
	)
	var flowStarts []int // where each open flow collection starts
	over := func() bool { return nodes > l.Nodes }
	closedAt := func(at, open int) []byte {
		out := make([]byte, 0, at+3*open+1)
		out = append(out, data[:at]...)
		for k := open - 1; k >= 0; k-- {
			if flow[k] == '[' {
				out = append(out, ']')
			} else {
				out = append(out, '}')
			}
			if implicitKey(data, flowStarts[k], at, open-k) {
				// The collection is a key: the mapping it opens, which a
				// parser starts before the collection, is a level too.
				out = append(out, ": "...)
			}
		}
		return append(out, '\n')
	}
	closed := func(at int) []byte { return closedAt(at, len(flow)) }
	n := len(data)
	for i < n {
		c := data[i]
		if lineStart && len(flow) == 0 {
			if over() {
				return closed(i)
			}
			lineStart = false
			indent = 0
			for i < n && data[i] == ' ' {
				i++
				indent++
			}
			continue
		}
		switch {
		case c == '\n' || c == '\r':
			lineStart = true
			i++
		case c == ' ' || c == '\t':
			i++
		case c == '#': // at a token's start, as every scalar is skipped whole: "{#c" is a comment
			for i < n && yamlscan.LineBreakAt(data, i) == 0 { // a comment ends at NEL, LS and PS too
				i++
			}
		case c == '"' || c == '\'':
			nodes++
			i = yamlscan.SkipQuoted(data, i)
		case c == '[' || c == '{':
			flowStarts = append(flowStarts, i)
			flow = append(flow, c)
			nodes++
			i++
			if len(flow) > l.Depth {
				return closed(i)
			}
		case (c == ']' || c == '}') && len(flow) > 0:
			flow = flow[:len(flow)-1]
			flowStarts = flowStarts[:len(flowStarts)-1]
			i++
		case c == ',' && len(flow) > 0:
			if over() {
				return closed(i)
			}
			i++
		case len(flow) == 0 && (c == '|' || c == '>'):
			i = yamlscan.SkipBlockScalar(data, i, indent)
			nodes++
			lineStart = true
		case c == '-' && len(flow) == 0 && (i+1 == n || yamlscan.IsBlankOrBreak(data[i+1])):
			nodes++ // an entry of a block sequence
			i++
		case c == ':' && (i+1 == n || yamlscan.IsBlankOrBreak(data[i+1]) || (len(flow) > 0 && yamlscan.IsFlowIndicator(data[i+1]))):
			i++
		case c == '&' || c == '!':
			for i < n && !yamlscan.IsBlankOrBreak(data[i]) && !(len(flow) > 0 && yamlscan.IsFlowIndicator(data[i])) {
				i++
			}
		default: // a plain scalar or an alias
			nodes++
			i = skipPlain(data, i, len(flow) > 0)
		}
	}
	if over() {
		return closed(n)
	}
	return nil
}

// implicitKey reports whether the flow collection that starts at start,
// with depth collections open at at (it and those inside it), closes on
// its line and is followed by ':', within the 1024 characters a YAML parser
// allows an implicit key: then it is the key of a mapping that a parser
// starts before it (a block mapping, or a single pair inside [] or {}).
func implicitKey(data []byte, start, at, depth int) bool {
	end := min(len(data), start+1024)
	for j := at; j < end; j++ {
		switch c := data[j]; {
		case c == '\n' || c == '\r':
			return false
		case c == '"' || c == '\'':
			k := yamlscan.CloseQuote(data[:end], j)
			if k < 0 || bytes.ContainsAny(data[j:k], "\r\n") {
				return false
			}
			j = k - 1
		case c == '#' && j > 0 && yamlscan.IsBlank(data[j-1]):
			return false
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth--; depth == 0 {
				k := j + 1
				for k < len(data) && yamlscan.IsBlank(data[k]) {
					k++
				}
				return k < end && data[k] == ':'
			}
		}
	}
	return false
}

// skipPlain returns the offset where the plain scalar starting at i ends on
// its line: at ": ", " #", the end of the line, or in flow context at a
// flow indicator.
func skipPlain(data []byte, i int, inFlow bool) int {
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n' || c == '\r':
			return i
		case c == ':' && (i+1 == len(data) || yamlscan.IsBlankOrBreak(data[i+1]) || (inFlow && yamlscan.IsFlowIndicator(data[i+1]))):
			return i
		case c == '#' && i > 0 && yamlscan.IsBlank(data[i-1]):
			return i
		case inFlow && yamlscan.IsFlowIndicator(c):
			return i
		}
	}
	return len(data)
}
