package taskspec

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
)

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
