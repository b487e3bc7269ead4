package yaml

import "fmt"

// Kind is the kind of a node.
type Kind int

// The kinds of node.
const (
	DocumentNode Kind = iota + 1
	SequenceNode
	MappingNode
	ScalarNode
	AliasNode
)

// Style is how a node was written: for a scalar, plain, quoted or a block
// scalar; for a collection, block or flow.
type Style int

// The styles.
const (
	PlainStyle Style = iota
	SingleQuotedStyle
	DoubleQuotedStyle
	LiteralStyle
	FoldedStyle
	BlockStyle
	FlowStyle
)

// A Node is one node of a document, as libyaml's loader builds it
// (loader.c): Tag is the tag as written, resolved against the %TAG
// directives ("tag:yaml.org,2002:str" for "!!str", "!" for the
// non-specific tag, "" when none was written); Value is a scalar's text or
// an alias's anchor name; Alias is the node an alias refers to; Content
// holds a document's root, a sequence's items, or a mapping's keys and
// values in turn. Start and End are the marks of the node's events: for a
// collection, End is the end of its closing event.
type Node struct {
	Kind    Kind
	Style   Style
	Tag     string
	Value   string
	Anchor  string
	Alias   *Node
	Content []*Node
	Start   Mark
	End     Mark
	// Implicit, for a scalar, is libyaml's plain_implicit: it may be
	// resolved by its text (plain and untagged, or tagged "!"). For a
	// document, it says the document had no "---".
	Implicit bool
}

// Options bound a document as it is read. A zero bound is no bound.
type Options struct {
	// MaxNodes is the most nodes the document may hold: every scalar,
	// alias, sequence and mapping, an alias counting once where it is
	// written (budget.Limits.Nodes).
	MaxNodes int
	// MaxDepth is the most collections the document may nest
	// (budget.Limits.Depth).
	MaxDepth int
	// YAMLv3 refuses a text where yaml.v3 3.0.4 reads it otherwise than
	// libyaml, with a DifferenceError at the routine where they part.
	YAMLv3 bool
	// NoTree reads and refuses the text as Parse does, but keeps no
	// collection's children: for a caller that wants only the refusal, in
	// memory that does not grow with the text.
	NoTree bool
	// Events reads the events only, as a pass over libyaml's parser
	// events does: an alias to no anchor, which libyaml's loader refuses,
	// is not refused.
	Events bool
}

// A Document is the first document of a text, and what follows it.
type Document struct {
	// Root is the document node (its one child is the content), or nil
	// when the text holds no document.
	Root *Node
	// Next is where a second document starts (its "---", or its first
	// token when it has none), nil when the stream ends after the first.
	// Only the second document's start is read: the caller decides.
	Next *Mark
	// Version is the document's %YAML directive, zero when none.
	Version [2]int
}

// Parse reads the first document of data, a UTF-8 text, as libyaml does,
// and composes its nodes. A text libyaml refuses gives an *Error with
// libyaml's problem, context and marks; so does the first node past a
// bound of opts (Kind BudgetError), as soon as the parser reaches it.
func Parse(data []byte, opts Options) (*Document, error) {
	start, rerr := checkInput(data)
	if rerr != nil {
		return nil, rerr
	}
	c := composer{p: newParser(data, start), opts: opts, anchors: map[string]*Node{}}
	c.p.s.yamlv3 = opts.YAMLv3
	doc, err := c.document()
	if err != nil {
		return nil, err
	}
	return doc, nil
}

type composer struct {
	p       *parser
	opts    Options
	anchors map[string]*Node
	nodes   int
	err     *Error
}

func (c *composer) next() (event, bool) {
	e, ok := c.p.next()
	if !ok {
		c.err = c.p.err
	}
	return e, ok
}

// document is yaml_parser_load (loader.c) for the stream's first
// document: STREAM-START, then DOCUMENT-START, the root node and
// DOCUMENT-END, then the next event: the next document's start, or the
// stream's end, or the error libyaml's parser meets getting there.
//
// Difference "second-document-lookahead": yaml.v3 reads ahead into the
// second document before it returns the first, so a syntax error at the
// start of the second document's content fails yaml.v3's first document
// ("0\n--- \"": unexpected end of stream); here the first document is read,
// and Next says a second starts.
func (c *composer) document() (*Document, *Error) {
	if _, ok := c.next(); !ok {
		return nil, c.err
	}
	e, ok := c.next()
	if !ok {
		return nil, c.err
	}
	if e.kind == evStreamEnd {
		return &Document{}, nil
	}
	doc := &Node{Kind: DocumentNode, Start: e.start, Implicit: e.implicit}
	out := &Document{Root: doc, Version: e.version}
	root, ok := c.node(0)
	if !ok {
		return nil, c.err
	}
	doc.Content = []*Node{root}
	end, ok := c.next()
	if !ok {
		return nil, c.err
	}
	doc.End = end.end
	after, ok := c.next()
	if !ok {
		return nil, c.err
	}
	if after.kind == evDocumentStart {
		m := after.start
		out.Next = &m
	}
	return out, nil
}

// count is the node budget and the depth budget, spent as each node's
// first event arrives, in document order: the first node past either
// bound is refused where it starts. The depth is checked first, as
// budget.Limits does.
func (c *composer) count(e event, depth int) bool {
	if c.opts.MaxDepth > 0 && depth > c.opts.MaxDepth {
		c.err = &Error{Kind: BudgetError, ProblemMark: e.start,
			Problem: fmt.Sprintf("document is nested deeper than %d levels", c.opts.MaxDepth)}
		return false
	}
	c.nodes++
	if c.opts.MaxNodes > 0 && c.nodes > c.opts.MaxNodes {
		c.err = &Error{Kind: BudgetError, ProblemMark: e.start,
			Problem: fmt.Sprintf("document has more than %d nodes", c.opts.MaxNodes)}
		return false
	}
	return true
}

// node is yaml_parser_load_node: the node whose first event is next, at
// depth collections below the document (its own level included when it
// is a collection).
//
// Anchors: a node's anchor is registered when its first event arrives, so
// an alias inside an anchored collection refers to it; an anchor defined
// again replaces the first for the aliases after it, as yaml.v3 and the
// Python library do (libyaml's loader and PyYAML's refuse it: "found
// duplicate anchor"). An alias to no anchor is libyaml's composer error.
func (c *composer) node(depth int) (*Node, bool) {
	e, ok := c.next()
	if !ok {
		return nil, false
	}
	n := &Node{Start: e.start, End: e.end, Anchor: e.anchor, Tag: e.tag, Implicit: e.implicit, Style: e.style}
	switch e.kind {
	case evAlias:
		if !c.count(e, depth) {
			return nil, false
		}
		n.Kind, n.Value, n.Anchor, n.Tag = AliasNode, e.anchor, "", ""
		target := c.anchors[e.anchor]
		if target == nil && !c.opts.Events {
			c.err = &Error{Kind: ComposerError, Problem: "found undefined alias", ProblemMark: e.start}
			return nil, false
		}
		n.Alias = target
		return n, true
	case evScalar:
		if !c.count(e, depth) {
			return nil, false
		}
		n.Kind, n.Value = ScalarNode, e.value
		c.register(n)
		return n, true
	}
	depth++
	if !c.count(e, depth) {
		return nil, false
	}
	n.Kind, n.Style = SequenceNode, BlockStyle
	endKind := evSequenceEnd
	if e.kind == evMappingStart {
		n.Kind, endKind = MappingNode, evMappingEnd
	}
	if e.flow {
		n.Style = FlowStyle
	}
	c.register(n)
	for {
		child, ok := c.childOrEnd(depth, endKind, n)
		if !ok {
			return nil, false
		}
		if child == nil {
			return n, true
		}
		if !c.opts.NoTree {
			n.Content = append(n.Content, child)
		}
	}
}

// childOrEnd reads the next child of the collection n, or, at the event
// that closes it, sets n's end and returns nil.
func (c *composer) childOrEnd(depth int, endKind eventKind, n *Node) (*Node, bool) {
	t := c.p.peekEvent()
	if t == nil {
		c.err = c.p.err
		return nil, false
	}
	if t.kind == endKind {
		e, _ := c.next()
		n.End = e.end
		return nil, true
	}
	return c.node(depth)
}

func (c *composer) register(n *Node) {
	if n.Anchor != "" {
		c.anchors[n.Anchor] = n
	}
}
