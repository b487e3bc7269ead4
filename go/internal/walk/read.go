package walk

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/wording"
)

// decodeRead decodes into m what the walk could read: the tree without
// the entries and items it refused.
func (w *walker) decodeRead(doc *yaml.Node, m *eval.TaskSpec) error {
	w.collectRead(doc)
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

// pruned is a copy of n without the entries and items the walk refused.
func (w *walker) pruned(n *yaml.Node, copies map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := copies[n]; ok {
		return c
	}
	c := *n
	copies[n] = &c
	if w.emptied[n] || w.emptied[deref(n)] {
		c = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
		return &c
	}
	if n.Kind == yaml.AliasNode {
		c.Alias = w.pruned(n.Alias, copies)
		return &c
	}
	isBad := func(x *yaml.Node) bool { return w.bad[x] || w.bad[deref(x)] }
	c.Content = nil
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if isBad(n.Content[i]) || isBad(n.Content[i+1]) {
				continue
			}
			c.Content = append(c.Content, w.pruned(n.Content[i], copies), w.pruned(n.Content[i+1], copies))
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if isBad(item) && !w.emptied[item] && !w.emptied[deref(item)] {
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

// collectRead notes what the rules and warnings need of the document as
// written: the text of each enum field, and each artifact's path.
func (w *walker) collectRead(doc *yaml.Node) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return
	}
	w.values = map[string]string{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := deref(n.Content[i]), deref(n.Content[i+1])
			if w.bad[k] || w.bad[v] || k.Kind != yaml.ScalarNode {
				continue
			}
			sub := wording.Path(path, k.Value)
			switch {
			case v.Kind == yaml.MappingNode && sub == "generated_from":
				walk(v, sub)
			case v.Kind == yaml.ScalarNode:
				if _, seen := w.values[sub]; !seen {
					w.values[sub] = v.Value
				}
			}
		}
	}
	walk(root, "")
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
			for path, at := range w.pos {
				if at.Line == p.Line && (p.Path == "" || len(path) > len(p.Path)) {
					p.Path, p.Column = path, at.Column
				}
			}
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
