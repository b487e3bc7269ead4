// Package walk owns the schema walk: the check of the tree yaml.v3 parsed
// from a document against the schema's fields, and the reading of what
// passes it into the YAML-shaped structs of package eval. It finds every
// unknown key, duplicate key and value of the wrong type, and the values
// that yaml.v3 would read otherwise than the Python library's collecting
// walk (a fraction in an integer field, a null list item or key, a merge
// key, a tag, a key given twice through an alias), each with its code
// where it is found, at the line and column of its node; it records where
// each field's value stands, for placing the problems found later; and it
// reads the tree without the entries and items it refused, as the
// Python library leaves them out of the spec it reads: through the
// generated readers, which set each field as yaml.v3's decoder would,
// with no copy of the tree and no reflection (see reader). The walk exists
// apart from the YAML reading rules (package yamlrules, which it asks
// about a tag yaml.v3 dropped or a '?' it could not read) because it
// follows the schema, not the text.
//
// Walk is its one entry point. It knows nothing of the public package: it
// reports plain Problems, which the public package turns into its
// Violations and StrictErrors. The field tables, the keys of each mapping
// and the map fields of the structs come from the generated walk_gen.go,
// so that nothing here walks the structs by reflection.
package walk

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlrules"
)

// A Problem is one problem the walk found: the field path it is at ("" for
// the document as a whole), its message without the path, its code, a
// hint ("" for none) and the 1-based line and column of its node (0 when
// unknown). A problem whose hint names what was likely meant (an unknown
// key's did-you-mean) has it as data too: Suggestion, to be written in
// place of Was, the text of its node.
type Problem struct {
	Path, Message, Hint string
	Code                taskspecv1.ProblemCode
	Line, Column        int
	Was, Suggestion     string
}

// A Position is the 1-based line and column where a value starts.
type Position struct{ Line, Column int }

// Positions holds where the value of each field path stands. A path set
// twice (a map key given twice) stands where it was set last. It is a list
// in walk order, since a document has a few dozen paths, which a map would
// cost more to build than the few look-ups it serves; a list past
// indexFrom paths, or one ranged over, is indexed by a map on first use.
type Positions struct {
	paths []string
	at    []Position
	index map[string]int // the last place of each path, once made
	// doc is the document whose positions are still to be found, by a
	// second walk on first use: only a document with a problem needs them,
	// so a valid one is walked once, with no list to fill.
	doc      *yaml.Node
	rules    *yamlrules.Rules
	maxNodes int
}

// fill finds the positions on first use, by walking the document again
// with the rules and budget of the first walk, which meets every value
// where the first did.
func (p *Positions) fill() {
	if p.doc == nil {
		return
	}
	doc := p.doc
	p.doc = nil
	w := &walker{rules: p.rules, budget: p.maxNodes, maxNodes: p.maxNodes, pos: p, record: true}
	w.document(doc)
}

// indexFrom is the length past which a look-up indexes the list.
const indexFrom = 32

// place records that the value at path stands where n does, on the walk
// that fills the positions.
func (w *walker) place(path string, n *yaml.Node) {
	if w.record {
		w.pos.set(path, Position{n.Line, n.Column})
	}
}

func (p *Positions) set(path string, at Position) {
	p.paths = append(p.paths, path)
	p.at = append(p.at, at)
	if p.index != nil {
		p.index[path] = len(p.paths) - 1
	}
}

func (p *Positions) indexed() map[string]int {
	p.fill()
	if p.index == nil {
		p.index = make(map[string]int, len(p.paths))
		for i, path := range p.paths {
			p.index[path] = i
		}
	}
	return p.index
}

// Get returns where the value at path stands, if the walk met it.
func (p *Positions) Get(path string) (Position, bool) {
	if p == nil {
		return Position{}, false
	}
	p.fill()
	if len(p.paths) <= indexFrom && p.index == nil {
		for i := len(p.paths) - 1; i >= 0; i-- {
			if p.paths[i] == path {
				return p.at[i], true
			}
		}
		return Position{}, false
	}
	i, ok := p.indexed()[path]
	if !ok {
		return Position{}, false
	}
	return p.at[i], true
}

// All calls each with every path and where its value stands, each path
// once, in no set order, until each returns false.
func (p *Positions) All(each func(path string, at Position) bool) {
	if p == nil {
		return
	}
	for path, i := range p.indexed() {
		if !each(path, p.at[i]) {
			return
		}
	}
}

// A Result is what the walk made of one document.
type Result struct {
	// Spec is what could be read: the tree without the entries and items
	// the walk refused. It is empty when the document expands past the
	// node budget.
	Spec *eval.TaskSpec
	// Problems lists every problem, in walk order, which is document order.
	Problems []Problem
	// First is the first refusal of the walk (a value that could not be
	// decoded is none), the one a reader that stops at one problem meets,
	// or nil; FirstPlain says that yaml.v3 refuses it too.
	First      *Problem
	FirstPlain bool
	// Stop says that nothing more is read: the top of the document is not
	// a mapping, or the document expands past the node budget.
	Stop bool
	// GoRejects says that the Go package's decoder refuses the document too.
	GoRejects bool
	// Positions holds where the value of each field path stands.
	Positions *Positions
	// Values holds the scalar text of each field as written, for the hints
	// of misspelt enums; none when the top of the document is no mapping.
	Values *Texts
}

// The codes of the problems this package reports.
const (
	codeUnknownKey   = taskspecv1.ProblemCode_PROBLEM_CODE_UNKNOWN_KEY
	codeDuplicateKey = taskspecv1.ProblemCode_PROBLEM_CODE_DUPLICATE_KEY
	codeWrongType    = taskspecv1.ProblemCode_PROBLEM_CODE_WRONG_TYPE
	codeUnsupported  = taskspecv1.ProblemCode_PROBLEM_CODE_UNSUPPORTED
	codeLimit        = taskspecv1.ProblemCode_PROBLEM_CODE_LIMIT
)

// Walk checks the document doc, as yaml.v3 parsed it, against the schema
// and reads what passes, with the YAML reading rules of its text and a
// budget of maxNodes nodes, alias expansions included.
func Walk(doc *yaml.Node, rules *yamlrules.Rules, maxNodes int) *Result {
	w := &walker{rules: rules, budget: maxNodes, maxNodes: maxNodes, pos: &Positions{doc: doc, rules: rules, maxNodes: maxNodes}}
	w.document(doc)
	m := new(eval.TaskSpec)
	if w.budget >= 0 { // past the budget, aliases expand too far to be worth decoding
		// What could be read: the tree without the entries and items the
		// walk refused, as the Python library's collecting walk leaves
		// them out of the spec.
		w.values = &Texts{w: w, doc: doc}
		ok, err := w.read(doc, m)
		if !ok {
			// A form the reader leaves to yaml.v3 (see reader).
			m = new(eval.TaskSpec)
			err = w.decodeRead(doc, m)
		}
		if err != nil {
			w.unreadable(err)
		}
		if len(w.problems) > 0 && !w.goRejects {
			// Whether the Go package's decoder refuses it too: then no
			// refusal here is a stricter one.
			var scratch eval.TaskSpec
			w.goRejects = w.decodeMirror(doc, &scratch) != nil
		}
	}
	return &Result{Spec: m, Problems: w.problems, First: w.first, FirstPlain: w.firstPlain,
		Stop: w.budget < 0 || w.stop, GoRejects: w.goRejects, Positions: w.pos, Values: w.values}
}

// walker checks a decoded tree against the schema. It records every
// problem in problems (the first refusal also in first) and the position
// of each field's value in pos.
type walker struct {
	rules    *yamlrules.Rules // the YAML reading rules of the text
	pos      *Positions
	record   bool // the walk fills pos (see Positions.fill)
	budget   int  // nodes the walk may still visit, alias expansions included
	maxNodes int  // the budget at the start

	// large holds the mappings too large for yaml.v3's duplicate check.
	large *largeMappings
	// problems lists every problem the walk met, in walk order (which is
	// document order): unknown keys, duplicate keys, values of the wrong
	// type and the stricter refusals, each as the Python library's
	// collecting walk words it. bad holds the nodes whose entry or item
	// could not be read, which the spec read for the rules leaves out.
	problems []Problem
	first    *Problem
	bad      map[*yaml.Node]bool
	emptied  map[*yaml.Node]bool
	// expanded holds, for each alias to a collection the walk met, the copy
	// of the collection it walked there (see named), and origin the node
	// each copy was made from.
	expanded, origin map[*yaml.Node]*yaml.Node
	// values holds the scalar text of each field as written.
	values     *Texts
	stop       bool // the document as a whole is refused: nothing more is reported
	firstPlain bool // first is a problem yaml.v3 also refuses, not a stricter rule
	goRejects  bool // the Go package's decoder refuses the document too
}

// fail records a problem of the given code at node n, the value (or key)
// at path, and marks n as not read. The first is also kept as w.first,
// the refusal a caller that stops at one problem sees.
func (w *walker) fail(n *yaml.Node, code taskspecv1.ProblemCode, path, format string, args ...any) {
	w.add(Problem{Path: path, Message: fmt.Sprintf(format, args...), Code: code, Line: n.Line, Column: n.Column})
	w.markBad(n)
}

// add records the problem p, and keeps it as w.first when it is the first.
func (w *walker) add(p Problem) {
	if w.first == nil {
		first := p
		w.first = &first
	}
	w.problems = append(w.problems, p)
}

// wrong is fail for a value yaml.v3 refuses too, a value of the wrong
// type (WRONG_TYPE): the problem is the same, but when it comes first it is
// no stricter refusal (FirstPlain), since the Go package is no less strict
// there.
func (w *walker) wrong(n *yaml.Node, path, format string, args ...any) {
	first := w.first == nil
	w.fail(n, codeWrongType, path, format, args...)
	if first {
		w.firstPlain = true
	}
}

func (w *walker) markBad(n *yaml.Node) {
	if w.bad == nil {
		w.bad = make(map[*yaml.Node]bool)
	}
	w.bad[n] = true
}

// deref follows an alias to the node it names: values are what matter, and
// an alias means the anchored value.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// isNull reports whether n is null as the Python library's is_null reads
// it: plain text that spells null, or "!!null" on such text. "!!null x" is
// not null: yaml.v3 refuses to read it as one.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && (n.Style&yaml.TaggedStyle == 0 || nullText(n.Value))
}

func (w *walker) document(doc *yaml.Node) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return
	}
	root := deref(doc.Content[0])
	w.place("", root)
	if root.Kind == yaml.MappingNode {
		w.mapping(root, "", specFields)
	} else if !isNullNode(root) && !w.bangEmpty(root) {
		w.wrong(root, "", "expected a mapping at the top of the document, got %s", w.describe(root))
		w.stop = true
	} else if w.bangEmpty(root) {
		w.stop = true
		// "!" alone: YAML's non-specific tag makes the empty scalar a
		// string, which yaml.v3 forgets and reads as null, an empty spec.
		w.fail(root, codeWrongType, "", `expected a mapping at the top of the document, got the string ""`)
	}
}

// A field kind tells the walk how to check a value.
type fieldKind int

const (
	kString fieldKind = iota
	kInt
	kStringList
	kIntMap
	kMessage
	kMessageList
)

type field struct {
	kind fieldKind
	sub  map[string]field // for kMessage and kMessageList
	// pointer: a kMessage field the Go package holds as a pointer, which
	// yaml.v3 cannot decode a mapping tagged !!null into.
	pointer bool
}

func (w *walker) mapping(n *yaml.Node, path string, fields map[string]field) {
	if w.flowQuestion(n, path) {
		return
	}
	if len(n.Content) > 2*largeMapping {
		w.noteLarge(n, path)
	}
	seen := newKeys(len(n.Content) / 2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		dv := deref(v)
		if !w.count(dv, "", 1) {
			return
		}
		keyMarks := w.lift(n.Content[i], k)
		f, ok := w.field(k, path, fields)
		w.settle(n.Content[i], k, keyMarks)
		if !ok {
			continue
		}
		sub := wording.Path(path, k.Value)
		if first := seen.find(k.Value); first != nil {
			w.duplicate(n.Content[i], k, first, v, dv, sub)
			continue
		}
		seen.add(k)
		w.place(sub, dv)
		dv = w.named(v)
		marks := w.lift(v, dv)
		w.value(dv, sub, f)
		w.settle(v, dv, marks)
	}
}

// field checks the key k of a mapping of fields at path and returns the
// field it names, or false, with the key refused, for a key that names
// none.
func (w *walker) field(k *yaml.Node, path string, fields map[string]field) (field, bool) {
	if w.bangEmpty(k) {
		// "? !": the non-specific tag makes the empty key a string, which
		// no struct has; yaml.v3 reads it as null and drops the entry.
		w.unknownKey(k, path, fields)
		return field{}, false
	}
	if !w.key(k, path) {
		return field{}, false
	}
	f, ok := fields[k.Value]
	if !ok {
		w.unknownKey(k, path, fields)
		w.goRejects = true // the Go package's decoder knows its fields
	}
	return f, ok
}

// keys are the keys met so far in one mapping, by their text: a list for
// the few keys of a message, a map past smallMapping of them.
type keys struct {
	list []*yaml.Node
	m    map[string]*yaml.Node
}

const smallMapping = 16

func newKeys(n int) keys {
	if n > smallMapping {
		return keys{m: make(map[string]*yaml.Node, n)}
	}
	return keys{list: make([]*yaml.Node, 0, n)}
}

// find is the key met before whose text is value, or nil.
func (s *keys) find(value string) *yaml.Node {
	if s.m != nil {
		return s.m[value]
	}
	for _, k := range s.list {
		if k.Value == value {
			return k
		}
	}
	return nil
}

func (s *keys) add(k *yaml.Node) {
	if s.m != nil {
		s.m[k.Value] = k
	} else {
		s.list = append(s.list, k)
	}
}

// named is the node the written node n names, as the walk reads it at
// this occurrence: n itself, the node an alias names, or, for an alias to a
// mapping or a sequence, a copy of it, made for this occurrence. The walk
// marks the entries and items it refuses, and a collection read in two
// places (an anchored generated_from, then verification: *g) may be
// refused in one and read in the other, as the Python library reads each
// occurrence on its own: the copy keeps the marks of each apart. The budget
// bounds the copies as it bounds the walk, which visits as many nodes.
func (w *walker) named(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.AliasNode {
		return n
	}
	d := deref(n)
	if d.Kind != yaml.MappingNode && d.Kind != yaml.SequenceNode {
		return d
	}
	if c := w.expanded[n]; c != nil {
		return c
	}
	if w.expanded == nil {
		w.expanded = make(map[*yaml.Node]*yaml.Node)
		w.origin = make(map[*yaml.Node]*yaml.Node)
	}
	c := copyTree(d)
	w.expanded[n] = c
	w.origin[c] = w.originOf(d)
	return c
}

// copyTree copies the tree n heads, down to its aliases, which are copied
// as aliases to the same nodes.
func copyTree(n *yaml.Node) *yaml.Node {
	c := *n
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, item := range n.Content {
			c.Content[i] = copyTree(item)
		}
	}
	return &c
}

// follow is the node the written node n names where the walk read it: the
// copy named made for an alias to a collection, or the node itself.
func (w *walker) follow(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.AliasNode {
		return n
	}
	if c := w.expanded[n]; c != nil {
		return c
	}
	return deref(n)
}

// originOf is the node of the document that n, a node or a copy named
// made, stands for.
func (w *walker) originOf(n *yaml.Node) *yaml.Node {
	if o := w.origin[n]; o != nil {
		return o
	}
	return n
}

// marks are the refusal marks of one node: bad (its entry or item is left
// out of the spec read) and emptied (it reads as an empty message).
type marks struct{ bad, emptied bool }

// lift starts the check of value, the node the written node occurrence
// names, and returns value's marks. A refusal is of one occurrence: a value
// refused where an alias puts it is still read where its anchor stands, and
// the other way round (task_id: &a x, then an integer field: *a), as the
// Python library's walk reads each occurrence on its own. So when
// occurrence is an alias, value's marks are cleared for the check, and
// settle moves the marks the check leaves to occurrence.
func (w *walker) lift(occurrence, value *yaml.Node) marks {
	if occurrence == value {
		return marks{}
	}
	m := marks{w.bad[value], w.emptied[value]}
	delete(w.bad, value)
	delete(w.emptied, value)
	return m
}

// settle ends the check lift started: the marks the check left on value
// move to occurrence, and value gets back the marks it had.
func (w *walker) settle(occurrence, value *yaml.Node, before marks) {
	if occurrence == value {
		return
	}
	if w.bad[value] {
		w.markBad(occurrence)
	}
	if w.emptied[value] {
		w.empty(occurrence)
	}
	delete(w.bad, value)
	delete(w.emptied, value)
	if before.bad {
		w.markBad(value)
	}
	if before.emptied {
		w.empty(value)
	}
}

// count spends n of the walk's node budget on node, which is visited once
// for each alias that leads to it, and reports whether any is left. An alias
// costs one node where it is written, but the walk visits what it names
// each time, so this is what bounds a document of nested aliases (a
// "billion laughs"), as the Python library's walk bounds it.
func (w *walker) count(node *yaml.Node, path string, n int) bool {
	if w.budget < 0 {
		return false
	}
	w.budget -= n
	if w.budget < 0 {
		w.fail(node, codeLimit, path, "document expands to more than %d nodes", w.maxNodes)
		return false
	}
	return true
}

// duplicate refuses the entry whose key, written as key (k, the node it
// names), was seen before in the same mapping (first), and leaves it out
// of the spec read. yaml.v3 finds two keys written alike; a key spelled
// through an alias (&k edge_count, then *k : 3) it does not, and keeps the
// last value silently. The position is the second key's, or its value's
// (v as written, dv the node it names) when the key is an alias, which
// stands where the anchored key was written, earlier.
func (w *walker) duplicate(key, k, first, v, dv *yaml.Node, path string) {
	at := k
	if k.Line < first.Line || (k.Line == first.Line && k.Column <= first.Column) {
		at = dv
	}
	// The refusal is of this entry, not of the nodes it names, which are
	// read where they are written.
	written := v
	if at == k {
		written = key
	}
	before := w.lift(written, at)
	w.fail(at, codeDuplicateKey, path, "duplicate key %s (first defined at line %d)", wording.Quote(k.Value), w.rules.EditorLine(first.Line))
	w.settle(written, at, before)
	w.markBad(key)
	if key.Kind != yaml.AliasNode {
		w.goRejects = true // yaml.v3 finds two keys written alike
	}
}

// key checks a mapping key: no null keys (yaml.v3 skips the entry
// silently), no merge keys (readers disagree on them, and YAML 1.2 has
// none), and no tag but !!str. It reports whether the key is a usable
// string.
func (w *walker) key(k *yaml.Node, path string) bool {
	if k.Kind != yaml.ScalarNode {
		w.wrong(k, path, "mapping keys must be strings, got %s", w.describe(k))
		return false
	}
	switch {
	case k.Tag == "!!merge" && k.Style&yaml.TaggedStyle == 0:
		// A plain "<<". A key tagged !!merge is refused by stringOK, for
		// its tag, as the Python library refuses it.
		w.fail(k, codeUnsupported, path, "merge keys (<<) are not supported; quote the key to mean the string")
		return false
	case isNull(k) && (k.Style&yaml.TaggedStyle == 0 || nullText(k.Value)):
		shown := wording.Clip(k.Value)
		if shown == "" {
			shown = "an empty key"
		}
		w.fail(k, codeUnsupported, path, "null key (%s) is not allowed: yaml.v3 skips such an entry silently; quote the key to mean a string", shown)
		return false
	}
	return w.stringOK(k, path)
}

func nullText(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// stringOK checks the tag of a scalar read as a string: none, !!str, or
// !!null on null text. Any other tag (!!binary, !!int, !custom) changes how
// readers read the value, each in its own way.
func (w *walker) stringOK(n *yaml.Node, path string) bool {
	if n.Style&yaml.TaggedStyle == 0 || n.Tag == "!!str" || (n.Tag == "!!null" && nullText(n.Value)) {
		return true
	}
	w.fail(n, codeUnsupported, path, "unsupported tag %s for a string field", wording.Quote(n.Tag))
	return false
}

// item checks the i-th item of the list at path, of field f, as the node
// it names.
func (w *walker) item(item *yaml.Node, path string, i int, f field) {
	ipath := path + "[" + strconv.Itoa(i) + "]"
	w.place(ipath, item)
	switch {
	case w.bangEmpty(item) && f.kind == kMessageList:
		// As for any item that is not a mapping, the Python library
		// adds it before it reads it: an empty one stays in the list.
		w.fail(item, codeWrongType, ipath, `expected a mapping for %s, got the string ""`, ipath)
		w.empty(item)
		return
	case w.bangEmpty(item):
		w.fail(item, codeUnsupported, ipath, "the non-specific tag ! alone is the empty string, which yaml.v3 reads as null and drops from the list silently; write '' for an empty item")
		return
	}
	if isNull(item) {
		empty := "''"
		if f.kind == kMessageList {
			empty = "{}"
		}
		w.fail(item, codeUnsupported, ipath, "null item is not allowed: yaml.v3 drops it from the list silently; write %s for an empty item", empty)
		return
	}
	switch {
	case f.kind == kStringList && item.Kind == yaml.ScalarNode:
		w.stringOK(item, ipath)
	case f.kind == kStringList:
		w.wrong(item, ipath, "expected a string, got %s", w.describe(item))
	case item.Kind == yaml.MappingNode:
		w.mapping(item, ipath, f.sub)
		if w.bad[item] && f.kind == kMessageList {
			// Refused whole (a '?' yaml.v3 cannot read): the Python
			// library keeps an empty item in its place, as for an
			// item that is not a mapping.
			w.empty(item)
		}
	default:
		// The Python library adds the item before it reads it: an
		// empty one stays in the list.
		w.wrong(item, ipath, "expected a mapping for %s, got %s", ipath, w.describe(item))
		w.empty(item)
	}
}

func (w *walker) value(n *yaml.Node, path string, f field) {
	switch f.kind {
	case kString:
		if n.Kind == yaml.ScalarNode {
			w.stringOK(n, path)
		} else {
			w.wrong(n, path, "expected a string, got %s", w.describe(n))
		}
	case kInt:
		if n.Kind == yaml.ScalarNode {
			w.integer(n, path)
		} else {
			w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		}
	case kMessage:
		if n.Kind == yaml.MappingNode && f.pointer && n.ShortTag() == "!!null" {
			// yaml.v3's prepare leaves a null-tagged node's pointer nil, and
			// its mapping then has nowhere to go: the Go package refuses it.
			w.fail(n, codeWrongType, path, "expected a mapping for %s, got %s tagged !!null", path, w.describe(n))
		} else if n.Kind == yaml.MappingNode {
			w.mapping(n, path, f.sub)
		} else if w.bangEmpty(n) {
			w.fail(n, codeWrongType, path, `expected a mapping for %s, got the string ""`, path)
		} else if !isNullNode(n) {
			w.wrong(n, path, "expected a mapping for %s, got %s", path, w.describe(n))
		}
	case kStringList, kMessageList:
		if w.bangEmpty(n) {
			w.fail(n, codeWrongType, path, `expected a sequence, got the string ""`)
			return
		}
		if n.Kind != yaml.SequenceNode && !isNullNode(n) {
			w.wrong(n, path, "expected a sequence, got %s", w.describe(n))
			return
		}
		if n.Kind != yaml.SequenceNode || !w.count(n, path, len(n.Content)) || w.flowQuestion(n, path) {
			return
		}
		for i, written := range n.Content {
			item := w.named(written)
			marks := w.lift(written, item)
			w.item(item, path, i, f)
			w.settle(written, item, marks)
			if w.budget < 0 {
				return
			}
		}
	case kIntMap:
		if w.bangEmpty(n) {
			w.fail(n, codeWrongType, path, `expected a mapping, got the string ""`)
		} else if n.Kind != yaml.MappingNode && !isNullNode(n) {
			w.wrong(n, path, "expected a mapping, got %s", w.describe(n))
		}
		if n.Kind != yaml.MappingNode || w.flowQuestion(n, path) {
			return
		}
		if len(n.Content) > 2*largeMapping {
			w.noteLarge(n, path)
		}
		seen := newKeys(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := deref(n.Content[i]), deref(n.Content[i+1])
			if !w.count(v, "", 1) {
				return
			}
			keyMarks := w.lift(n.Content[i], k)
			keyOK := w.key(k, path)
			w.settle(n.Content[i], k, keyMarks)
			if !keyOK {
				continue
			}
			sub := path + "[" + strconv.Quote(k.Value) + "]"
			w.place(sub, v)
			if first := seen.find(k.Value); first != nil {
				w.duplicate(n.Content[i], k, first, n.Content[i+1], v, sub)
				continue
			}
			seen.add(k)
			marks := w.lift(n.Content[i+1], v)
			if v.Kind == yaml.ScalarNode {
				w.integer(v, sub)
			} else {
				w.wrong(v, sub, "expected an integer, got %s", w.describe(v))
			}
			w.settle(n.Content[i+1], v, marks)
		}
	}
}

var (
	minInt64 = new(big.Rat).SetInt64(math.MinInt64)
	maxInt64 = new(big.Rat).SetInt64(math.MaxInt64)
)

// integer checks a scalar read into an integer field. yaml.v3 stores
// int64(f) for a float f: it truncates a fraction, wraps a value out of
// range and keeps float64's rounding of a large integer, each of which
// changes the number written, so each is refused. So are tags other than
// !!int and !!float, and the non-specific tag "!", which YAML reads as a
// string and yaml.v3 ignores.
func (w *walker) integer(n *yaml.Node, path string) {
	explicit := n.Style&yaml.TaggedStyle != 0
	if explicit && n.Tag != "!!int" && n.Tag != "!!float" {
		if n.Tag == "!!null" && nullText(n.Value) {
			return
		}
		w.fail(n, codeWrongType, path, "expected an integer, got %s %s", n.Tag, wording.Quote(n.Value))
		return
	}
	if !explicit && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && w.rules.BangTagged(n) {
		if n.Value == "" {
			// libyaml reads "!" alone as the empty string, quoted.
			w.fail(n, codeWrongType, path, "expected an integer, got the string %s", wording.Quote(n.Value))
		} else {
			w.fail(n, codeUnsupported, path, "expected an integer, got the tagged string %s", wording.Quote(n.Value))
		}
		return
	}
	if !explicit && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		return
	}
	if _, ok := plainDecimal(n); ok {
		return // the common form, which yaml.v3 reads as the integer written
	}
	resolved := (&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag()
	if resolved == "!!null" && !explicit {
		return
	}
	if n.Tag == "!!int" && resolved != "!!int" {
		w.fail(n, codeWrongType, path, "cannot read %s as an !!int: it is a %s", wording.Quote(n.Value), strings.TrimPrefix(resolved, "!!"))
		return
	}
	if resolved == "!!int" && n.Tag != "!!float" {
		var i int64
		if (&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: n.Value}).Decode(&i) != nil {
			w.wrong(n, path, "integer %s is out of the int64 range", wording.Quote(n.Value))
		}
		return
	}
	if resolved != "!!int" && resolved != "!!float" {
		w.wrong(n, path, "expected an integer, got %s", w.describe(n))
		return
	}
	if resolved == "!!int" {
		// An integer tagged !!float: yaml.v3 reads the integer (a leading 0
		// makes it octal), then stores it through float64, as the Python
		// library reads it too.
		var i int64
		if (&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: n.Value}).Decode(&i) != nil {
			w.wrong(n, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		} else if f := float64(i); f >= 1<<63 || int64(f) != i {
			w.fail(n, codeWrongType, path, "number %s does not survive float64, which yaml.v3 reads it through", wording.Quote(n.Value))
		}
		return
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return
	}
	if math.IsInf(f, 0) {
		w.fail(n, codeWrongType, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		return
	}
	if math.IsNaN(f) || f != math.Trunc(f) {
		w.fail(n, codeWrongType, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		return
	}
	exact, ok := new(big.Rat).SetString(strings.ReplaceAll(n.Value, "_", ""))
	if !ok && f == 0 && strings.ContainsAny(mantissa(n.Value), "123456789") {
		// An exponent too large for big.Rat: a value float64 holds as 0 but
		// that is not 0 lies strictly between -1 and 1.
		w.fail(n, codeWrongType, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		return
	}
	got := new(big.Rat)
	got.SetFloat64(f)
	if ok && exact.Cmp(got) != 0 {
		switch {
		case !exact.IsInt():
			w.fail(n, codeWrongType, path, "expected an integer, got the non-integral number %s", wording.Quote(n.Value))
		case exact.Cmp(minInt64) >= 0 && exact.Cmp(maxInt64) <= 0:
			w.fail(n, codeWrongType, path, "number %s does not survive float64, which yaml.v3 reads it through", wording.Quote(n.Value))
		default:
			w.fail(n, codeWrongType, path, "number %s is out of the int64 range", wording.Quote(n.Value))
		}
		return
	}
	if got.Cmp(minInt64) < 0 || got.Cmp(maxInt64) > 0 {
		w.fail(n, codeWrongType, path, "number %s is out of the int64 range", wording.Quote(n.Value))
	}
}

// flowQuestion refuses the collection n written in [] or {} when one of
// its plain scalars held a '?' as written (see yamlrules.FlowQuestion):
// the whole collection, at the scalar.
func (w *walker) flowQuestion(n *yaml.Node, path string) bool {
	at, message, ok := w.rules.FlowQuestion(n)
	if !ok {
		return false
	}
	w.fail(at, codeUnsupported, path, "%s", message)
	w.markBad(n) // the whole collection is refused, and left out of what is read
	return true
}

// bangEmpty reports whether n is the empty plain scalar written with the
// non-specific tag "!" alone: the empty string to YAML (and to libyaml, and
// so to the Python library), null to yaml.v3, which forgets the tag.
func (w *walker) bangEmpty(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && isNull(n) && n.Style&yaml.TaggedStyle == 0 && w.rules.BangTagged(n)
}

// withoutIndexes is path without the indexes of list items:
// "solution_artifacts[2].path" is "solution_artifacts.path".
func withoutIndexes(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mantissa is the digits of a number's text before its exponent.
func mantissa(text string) string {
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		return text[:i]
	}
	return text
}

// unknownKey records a key that names no field of the mapping at path, as
// the Python library words it: `path: unknown field "x"`, ` in parent`
// after a nested one, and a hint naming the field it most likely meant, or
// else every field the mapping takes.
func (w *walker) unknownKey(k *yaml.Node, path string, fields map[string]field) {
	sub := wording.Path(path, k.Value)
	msg := "unknown field " + wording.Quote(k.Value)
	if path != "" {
		msg += " in " + path
	}
	guess := guessField(k.Value, fields)
	h := ""
	if guess != "" {
		h = "did you mean " + strconv.Quote(guess) + "?"
	} else {
		h = "expected one of: " + strings.Join(mirrorKeys(path), ", ")
	}
	first := w.first == nil
	w.add(Problem{Path: sub, Message: msg, Hint: h, Code: codeUnknownKey, Line: k.Line, Column: k.Column,
		Was: k.Value, Suggestion: guess})
	if first {
		w.firstPlain = true
	}
	w.markBad(k)
}

// empty marks a message-list item that is not a mapping: the spec read
// keeps an empty message in its place, as the Python library's does.
func (w *walker) empty(n *yaml.Node) {
	if w.emptied == nil {
		w.emptied = make(map[*yaml.Node]bool)
	}
	w.emptied[n] = true
}

// isNullNode reports whether n is null to both readers: a plain scalar
// spelling null, or !!null on such text, also quoted or as a block scalar
// (!!null then an empty quoted value, or ">"): the tag, not the style,
// decides.
func isNullNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && nullText(n.Value) &&
		(n.Style&yaml.TaggedStyle != 0 ||
			n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0)
}

// describe is what node n is, for "expected X, got Y" messages: "a
// mapping", "a sequence", `the string "x"`, `the int "5"`, `!!binary "x"`.
func (w *walker) describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	}
	if n.Style&yaml.TaggedStyle != 0 {
		return n.Tag + " " + wording.Quote(n.Value)
	}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return "the string " + wording.Quote(n.Value)
	}
	kind := strings.TrimPrefix((&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag(), "!!")
	if kind == "str" {
		kind = "string"
	}
	return "the " + kind + " " + wording.Quote(n.Value)
}

// guessField is the field of fields an unknown key most likely meant, or
// "".
func guessField(key string, fields map[string]field) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return wording.Guess(key, names)
}
