package walk

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/wording"
)

// decodeRead decodes into m what the walk could read: the tree without
// the entries and items it refused, copied, by yaml.v3's decoder. It is
// what the reader (see read) reproduces, and is used for the forms the
// reader leaves to yaml.v3.
func (w *walker) decodeRead(doc *yaml.Node, m *eval.TaskSpec) error {
	if len(w.bad) == 0 && len(w.emptied) == 0 {
		return w.decodeMirror(doc, m)
	}
	copies := make(map[*yaml.Node]*yaml.Node)
	pruned := w.pruned(doc, copies)
	if w.large != nil {
		saved := w.large.nodes
		nodes := make([]*yaml.Node, len(saved))
		for i, n := range saved {
			if c, ok := copies[n]; ok {
				nodes[i] = c
			} else {
				nodes[i] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			}
		}
		w.large.nodes = nodes
		defer func() { w.large.nodes = saved }()
	}
	return w.decodeMirror(pruned, m)
}

// pruned is a copy of n, a node as written, without the entries and items
// the walk refused: an empty mapping for a node the walk emptied.
func (w *walker) pruned(n *yaml.Node, copies map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n != nil && w.isEmptied(n) {
		// Not kept in copies: the marks are of this occurrence, and an
		// alias to n reads n as written.
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	}
	return w.prunedCopy(n, copies)
}

// prunedCopy is pruned for the node n itself, whatever the marks of the
// occurrence that names it, made once for every occurrence.
func (w *walker) prunedCopy(n *yaml.Node, copies map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := copies[n]; ok {
		return c
	}
	c := *n
	copies[n] = &c
	if n.Kind == yaml.AliasNode {
		c.Alias = w.prunedCopy(w.follow(n), copies)
		return &c
	}
	c.Content = nil
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if w.isBad(n.Content[i]) || w.isBad(n.Content[i+1]) {
				continue
			}
			c.Content = append(c.Content, w.pruned(n.Content[i], copies), w.pruned(n.Content[i+1], copies))
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if w.isBad(item) && !w.isEmptied(item) {
				continue
			}
			c.Content = append(c.Content, w.pruned(item, copies))
		}
	default:
		for _, item := range n.Content {
			c.Content = append(c.Content, w.pruned(item, copies))
		}
	}
	return &c
}

// Texts holds the scalar text of each field as written, for the hints of
// misspelt enums: gathered from the document on first use, since only a
// document with a broken rule needs it.
type Texts struct {
	w      *walker
	doc    *yaml.Node
	values map[string]string
	done   bool
}

// Get is the text of the field at path as written, or "".
func (t *Texts) Get(path string) string {
	if t == nil {
		return ""
	}
	if !t.done {
		t.values, t.done = t.w.collectRead(t.doc), true
	}
	return t.values[path]
}

// collectRead gathers the text of each scalar field of the document as
// written, for the hints of misspelt enums; nil when the top of the
// document is no mapping.
func (w *walker) collectRead(doc *yaml.Node) map[string]string {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil
	}
	values := map[string]string{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if w.isBad(n.Content[i]) || w.isBad(n.Content[i+1]) {
				continue
			}
			k, v := deref(n.Content[i]), w.follow(n.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				continue
			}
			sub := wording.Path(path, k.Value)
			switch {
			case v.Kind == yaml.MappingNode && sub == "generated_from":
				walk(v, sub)
			case v.Kind == yaml.ScalarNode:
				if _, seen := values[sub]; !seen {
					values[sub] = v.Value
				}
			}
		}
	}
	walk(root, "")
	return values
}

// unreadable records a value yaml.v3 could not decode that the walk did
// not refuse: a gap in the walk, reported rather than lost.
func (w *walker) unreadable(err error) {
	var te *yaml.TypeError
	lines := []string{err.Error()}
	if errors.As(err, &te) {
		lines = te.Errors
	}
	for _, text := range lines {
		p := Problem{Message: "the value cannot be read as this field's type", Code: codeWrongType}
		if m := errLine.FindStringSubmatch(text); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			w.pos.All(func(path string, at Position) bool {
				if at.Line == p.Line && (p.Path == "" || len(path) > len(p.Path)) {
					p.Path, p.Column = path, at.Column
				}
				return true
			})
		}
		// A gap in the walk, not a refusal: never the first (see add).
		w.problems = append(w.problems, p)
	}
}

var errLine = regexp.MustCompile(`line (\d+)`)

// largeMapping is the number of entries past which a mapping is kept from
// yaml.v3's decoder. Its duplicate-key check compares every pair of keys,
// so a mapping of 40,000 keys costs seconds; this package finds duplicates
// in one pass instead, and decodes such a mapping itself. No sidecar comes
// near the bound, so every ordinary document is decoded by yaml.v3 alone.
const largeMapping = 1000

// largeMappings are the mappings of a document with more than largeMapping
// entries, in the order the walk met them.
type largeMappings struct {
	nodes []*yaml.Node
	paths []string
	seen  map[*yaml.Node]bool
}

func (w *walker) noteLarge(n *yaml.Node, path string) {
	if w.large == nil {
		w.large = &largeMappings{seen: make(map[*yaml.Node]bool)}
	}
	if w.large.seen[n] {
		return // reached again through an alias
	}
	w.large.seen[n] = true
	w.large.nodes = append(w.large.nodes, n)
	w.large.paths = append(w.large.paths, path)
}

// decodeMirror decodes the document into m as yaml.v3 would, keeping the
// large mappings (which check has found free of duplicates, so maps) from
// yaml.v3's decoder: they are detached while it runs and decoded here,
// entry by entry, with yaml.v3's errors for entries it would refuse. A large
// mapping that is not a map field of m (a message's) is left as yaml.v3
// read it without its entries.
func (w *walker) decodeMirror(doc *yaml.Node, m *eval.TaskSpec) error {
	if w.large == nil {
		return doc.Decode(m)
	}
	kept := make([][]*yaml.Node, len(w.large.nodes))
	for i, n := range w.large.nodes {
		kept[i], n.Content = n.Content, nil
	}
	err := doc.Decode(m)
	for i, n := range w.large.nodes {
		n.Content = kept[i]
	}
	if err != nil {
		return err
	}
	var errs []string
	for i, n := range w.large.nodes {
		target := intMapAt(m, w.large.paths[i])
		if target == nil {
			continue
		}
		if err := decodeEntries(n, target, &errs); err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

// decodeEntries decodes the entries of the mapping n into the map at
// target, made if nil, adding yaml.v3's messages for the entries it would
// refuse to errs; any other error is returned.
func decodeEntries(n *yaml.Node, target *map[string]int, errs *[]string) error {
	if *target == nil {
		*target = make(map[string]int, len(n.Content)/2)
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		var key string
		var value int
		kerr, verr := n.Content[j].Decode(&key), n.Content[j+1].Decode(&value)
		for _, e := range []error{kerr, verr} {
			if te, ok := e.(*yaml.TypeError); ok {
				*errs = append(*errs, te.Errors...)
			} else if e != nil {
				return e
			}
		}
		(*target)[key] = value
	}
	return nil
}

// pathStep splits the first step off path, as the decoder writes paths
// ("a.b[2].c"): the field name, the list index (-1 for none), the path
// after it, and whether this was the last step. A step whose index is not
// a number has the name "", which no field has.
func pathStep(path string) (name string, index int, rest string, last bool) {
	step, rest, more := strings.Cut(path, ".")
	name, at, indexed := strings.Cut(step, "[")
	index = -1
	if indexed {
		n, err := strconv.Atoi(strings.TrimSuffix(at, "]"))
		if err != nil || n < 0 {
			return "", -1, rest, !more
		}
		index = n
	}
	return name, index, rest, !more
}

// node is a node of the tree yaml.v3 parsed, for the generated readers.
type node = *yaml.Node

// A reader reads what the walk did not refuse into the mirror structs,
// field by field, through typed setters (the generated <message>Read
// functions call them), exactly as yaml.v3's decoder decodes the tree
// without the entries and items the walk refused: the tree is neither
// copied nor decoded by reflection. An entry or item is left out as pruned
// leaves it out; a message-list item the walk emptied reads as an empty
// mapping. Where the reading could part ways with yaml.v3's decoder on a
// form no sidecar holds (a tag on a mapping or list, a mapping key written
// twice through aliases of a redefined anchor, an alias inside the node it
// names, a document with many nodes read through aliases, an emptied node
// read as anything but a message, a large mapping), failed is set, and the
// caller decodes the pruned tree with yaml.v3 instead.
type reader struct {
	w *walker
	// errs are yaml.v3's messages for the values it would refuse, in
	// document order, as its TypeError holds them.
	errs   []string
	failed bool
	open   []*yaml.Node // the mappings being read, innermost last
	// visits counts the nodes met, aliases counted again for the node they
	// name, and hops the aliases followed, for yaml.v3's bound on aliasing.
	visits, hops int
}

// maxAliasedVisits is the number of nodes past which a document read
// through any alias is left to yaml.v3's decoder, which refuses a document
// read mostly through aliases once it has decoded more than 1,000 nodes;
// the bound is lower, so that a count that differs a little from the
// decoder's cannot matter.
const maxAliasedVisits = 500

// read decodes into m what the walk could read from doc, as decodeRead
// does, and reports false when the reader cannot promise yaml.v3's result
// (see reader), with m then half read.
func (w *walker) read(doc *yaml.Node, m *eval.TaskSpec) (bool, error) {
	if w.large != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return false, nil
	}
	r := &reader{w: w, visits: 1}
	if c, ok := r.mapping(doc.Content[0]); ok {
		readSpec(r, c, m)
	}
	if r.failed || r.hops > 0 && r.visits > maxAliasedVisits {
		return false, nil
	}
	if len(r.errs) > 0 {
		return true, &yaml.TypeError{Errors: r.errs}
	}
	return true, nil
}

// isBad reports whether the entry or item holding n, a node as written,
// is left out. The marks are of occurrences (see lift): an alias is read or
// left out on its own, whatever became of the node it names elsewhere.
func (w *walker) isBad(n *yaml.Node) bool {
	return w.bad != nil && w.bad[n]
}

// isEmptied reports whether n, as written, reads as an empty mapping.
func (w *walker) isEmptied(n *yaml.Node) bool {
	return w.emptied != nil && w.emptied[n]
}

// deref is the node n names where the walk read it (see named), counted
// as yaml.v3's decoder counts it.
func (r *reader) deref(n *yaml.Node) *yaml.Node {
	r.visits++
	if n.Kind == yaml.AliasNode {
		r.visits++
		r.hops++
		return r.w.follow(n)
	}
	return n
}

// scalar is the scalar n names, or nil, with failed set, when n is no
// scalar or one the walk would have refused: only the forms it lets through
// are read here.
func (r *reader) scalar(n *yaml.Node) *yaml.Node {
	if r.w.isEmptied(n) {
		r.failed = true
		return nil
	}
	d := r.deref(n)
	if d.Kind != yaml.ScalarNode {
		r.failed = true
		return nil
	}
	return d
}

// isNullScalar reports whether d, a scalar, decodes as null: a tag the
// parser resolved or was given as !!null, on text that spells null, where
// the walk lets it through.
func (r *reader) isNullScalar(d *yaml.Node) bool {
	if d.Tag != "!!null" {
		return false
	}
	if !nullText(d.Value) {
		r.failed = true // yaml.v3 refuses !!null on other text
	}
	return true
}

// text is the string that the scalar n decodes to, and false for null,
// which leaves a string unset.
func (r *reader) text(n *yaml.Node) (string, bool) {
	d := r.scalar(n)
	if d == nil || r.isNullScalar(d) {
		return "", false
	}
	if d.Style&yaml.TaggedStyle != 0 && d.Tag != "!!str" {
		r.failed = true // !!binary and other tags the walk refuses
		return "", false
	}
	return d.Value, true
}

// string sets *dst to the string n decodes to; null leaves it.
func (r *reader) string(n *yaml.Node, dst *string) {
	if s, ok := r.text(n); ok {
		*dst = s
	}
}

// int sets *dst to the integer n decodes to; null leaves it, and so does a
// value yaml.v3 refuses, whose message is kept. A plain decimal integer is
// read here; any other form (octal, hex, underscores, a float, a tag) is
// decoded by yaml.v3, on that node alone.
func (r *reader) int(n *yaml.Node, dst *int) bool {
	d := r.scalar(n)
	if d == nil || r.isNullScalar(d) {
		return false
	}
	if v, ok := plainDecimal(d); ok {
		*dst = v
		return true
	}
	var v int
	err := d.Decode(&v)
	if te, ok := err.(*yaml.TypeError); ok {
		r.errs = append(r.errs, te.Errors...)
		return false
	} else if err != nil {
		r.failed = true // yaml.v3 would stop decoding the whole document
		return false
	}
	*dst = v
	return true
}

// plainDecimal is the value of a plain scalar written as a decimal
// integer with no leading zero, '+' or '_' and at most 18 digits, which
// yaml.v3 resolves to an !!int of that value; ok is false for any other
// text.
func plainDecimal(d *yaml.Node) (int, bool) {
	if d.Tag != "!!int" || d.Style != 0 {
		return 0, false
	}
	s := d.Value
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// collection is the mapping or sequence n names, as kind, with ok false
// for null (and failed set for anything else, or for an emptied node, a
// tag, or a node already being read).
func (r *reader) collection(n *yaml.Node, kind yaml.Kind) (*yaml.Node, bool) {
	if r.w.isEmptied(n) {
		r.failed = true
		return nil, false
	}
	d := r.deref(n)
	switch {
	case d.Kind == yaml.ScalarNode && r.isNullScalar(d):
		return nil, false
	case d.Kind != kind || d.Style&yaml.TaggedStyle != 0:
		r.failed = true
		return nil, false
	}
	return d, true
}

// mapping is the mapping n names, read into a message: nil, with ok, for a
// node the walk emptied, which reads as an empty mapping; ok is false for
// null, which leaves a message held by value and clears one held by a
// pointer.
func (r *reader) mapping(n *yaml.Node) (node, bool) {
	if r.w.isEmptied(n) {
		r.visits++
		return nil, true
	}
	return r.collection(n, yaml.MappingNode)
}

// sequence is the items of the sequence n names; ok is false for null,
// which clears a list.
func (r *reader) sequence(n *yaml.Node) ([]*yaml.Node, bool) {
	d, ok := r.collection(n, yaml.SequenceNode)
	if !ok {
		return nil, false
	}
	return d.Content, true
}

// kept reports whether the list item is read: one the walk refused is
// left out, unless it emptied it.
func (r *reader) kept(item *yaml.Node) bool {
	return !r.w.isBad(item) || r.w.isEmptied(item)
}

// itemText is the string a list item decodes to; ok is false for an item
// left out, and for null, which yaml.v3 drops.
func (r *reader) itemText(item *yaml.Node) (string, bool) {
	if !r.kept(item) {
		return "", false
	}
	return r.text(item)
}

// itemMapping is mapping for a message-list item; ok is false for an item
// left out, and for null, which yaml.v3 drops.
func (r *reader) itemMapping(item *yaml.Node) (node, bool) {
	if !r.kept(item) {
		return nil, false
	}
	return r.mapping(item)
}

// enter starts the reading of the entries of the mapping n (nil for an
// empty one), refusing a mapping already being read: yaml.v3 refuses an
// alias inside the node it names.
func (r *reader) enter(n *yaml.Node) bool {
	if n == nil || r.failed {
		return false
	}
	for _, o := range r.open {
		if r.w.originOf(o) == r.w.originOf(n) {
			r.failed = true
			return false
		}
	}
	r.open = append(r.open, n)
	r.aliasKeys(n)
	return true
}

func (r *reader) leave() { r.open = r.open[:len(r.open)-1] }

// aliasKeys sets failed when two keys of n that are read are aliases of
// one anchor name: yaml.v3 compares the keys as written, so an anchor
// redefined between them makes it refuse the mapping, where the walk saw
// two keys. Keys written alike the walk has already refused.
func (r *reader) aliasKeys(n *yaml.Node) {
	var names []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.AliasNode || r.w.isBad(k) || r.w.isBad(n.Content[i+1]) {
			continue
		}
		if slices.Contains(names, k.Value) {
			r.failed = true
			return
		}
		names = append(names, k.Value)
	}
}

// entry is the key and value of the i-th entry of the mapping n, or ""
// for an entry left out, which names no field.
func (r *reader) entry(n *yaml.Node, i int) (string, *yaml.Node) {
	k, v := n.Content[i], n.Content[i+1]
	if r.w.isBad(k) || r.w.isBad(v) {
		return "", nil
	}
	key, ok := r.text(k)
	if !ok {
		r.failed = true // a null key, which the walk refuses
		return "", nil
	}
	return key, v
}

// intMap reads the mapping n into the map at dst, as yaml.v3 decodes a
// map[string]int: made if nil, each entry set to the integer its value
// decodes to, or to 0 for null; null clears the map.
func (r *reader) intMap(n *yaml.Node, dst *map[string]int) {
	d, ok := r.collection(n, yaml.MappingNode)
	if !ok {
		*dst = nil
		return
	}
	if !r.enter(d) {
		return
	}
	isNew := *dst == nil
	if isNew {
		*dst = make(map[string]int, len(d.Content)/2)
	}
	for i := 0; i+1 < len(d.Content); i += 2 {
		key, v := r.entry(d, i)
		if v == nil {
			continue
		}
		var value int
		if r.int(v, &value) {
			(*dst)[key] = value
		} else if deref(v).Tag == "!!null" {
			if _, seen := (*dst)[key]; isNew || !seen {
				(*dst)[key] = value
			}
		}
	}
	r.leave()
}
