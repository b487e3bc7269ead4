package main

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// mirror_gen.go holds the typed code that moves values between the message
// and its YAML shape (the eval structs), one function per message and job,
// derived from the same walk as the structs themselves: the converters both
// ways, the walk that finds the strings yaml.v3 writes as unreadable literal
// blocks, the copy of a struct that holds a map with its keys in the fixed
// order, and the node count of the YAML a mirror gives. walk_gen.go, in
// internal/walk, holds what the schema walk knows of the structs: the
// decoder's field tables, the large maps the decoder fills itself, the
// keys a mapping takes, and the readers that set each field from its node,
// where yaml.v3's decoder did it by reflection. The Go library had done all
// of this by reflection at run time.

const (
	libImport  = "github.com/taskspec/taskspec/go"
	mirrorFile = "mirror_gen.go"
	walkImport = libImport + "/internal/walk"
	walkFile   = "internal/walk/walk_gen.go"
)

// A shape is what a field is in the mirror; goType admits these only.
type shape int

const (
	shString      shape = iota // string
	shInt                      // int, from int64
	shEnum                     // the enum's string type, holding its spelling
	shStringList               // []string
	shMessageList              // []M
	shMessage                  // M, held by value: always written
	shMessagePtr               // *M: PRESENCE_OMIT_UNSET
	shIntMap                   // map[string]int, from map<string, int64>
)

func shapeOf(w *walked) shape {
	fd := w.field.Desc
	switch {
	case fd.IsMap():
		return shIntMap
	case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
		return shMessageList
	case fd.IsList():
		return shStringList
	case fd.Kind() == protoreflect.MessageKind && w.contract.GetPresence() == "PRESENCE_OMIT_UNSET":
		return shMessagePtr
	case fd.Kind() == protoreflect.MessageKind:
		return shMessage
	case fd.Kind() == protoreflect.EnumKind:
		return shEnum
	case fd.Kind() == protoreflect.Int64Kind:
		return shInt
	}
	return shString
}

// mirrorGen renders mirror_gen.go, and with another file walk_gen.go.
type mirrorGen struct {
	c *contract
	g *protogen.GeneratedFile
	// What each message needs, from its own fields and those of the
	// messages it holds.
	toFails   map[*protogen.Message]bool // converting to the mirror can fail
	fromFails map[*protogen.Message]bool // converting from the mirror can fail
	plain     map[*protogen.Message]bool // holds a plain string: a fix site
	maps      map[*protogen.Message]bool // holds a map
	text      map[*protogen.Message]bool // holds a string: a plain one, or a map's key
	items     map[*protogen.Message]bool // holds a list or a map
	zero      map[*protogen.Message]bool // an omitempty field holds it by value
}

// reaches marks each message for which own holds of one of its fields, or
// of a field of a message it holds (maps excepted: their entries are not
// messages of the mirror).
func (c *contract) reaches(own func(w *walked) bool) map[*protogen.Message]bool {
	out := map[*protogen.Message]bool{}
	var visit func(m *protogen.Message) bool
	visit = func(m *protogen.Message) bool {
		if v, ok := out[m]; ok {
			return v
		}
		r := false
		for _, w := range c.byMsg[string(m.Desc.FullName())] {
			if own(w) {
				r = true
			}
			if w.field.Message != nil && !w.field.Desc.IsMap() && visit(w.field.Message) {
				r = true
			}
		}
		out[m] = r
		return r
	}
	for _, m := range c.messages {
		visit(m)
	}
	return out
}

func (c *contract) mirrorGo(gen *protogen.Plugin) {
	mg := &mirrorGen{c: c, g: gen.NewGeneratedFile(mirrorFile, libImport)}
	mg.toFails = c.reaches(func(w *walked) bool {
		s := shapeOf(w)
		return s == shInt || s == shEnum || s == shIntMap // an int64 may not fit in int
	})
	mg.fromFails = c.reaches(func(w *walked) bool { return shapeOf(w) == shEnum })
	mg.plain = c.reaches(func(w *walked) bool {
		s := shapeOf(w)
		return s == shString || s == shStringList
	})
	mg.maps = c.reaches(func(w *walked) bool { return shapeOf(w) == shIntMap })
	mg.text = c.reaches(func(w *walked) bool {
		s := shapeOf(w)
		return s == shString || s == shStringList || s == shIntMap
	})
	mg.items = c.reaches(func(w *walked) bool {
		s := shapeOf(w)
		return s == shStringList || s == shMessageList || s == shIntMap
	})
	mg.zero = map[*protogen.Message]bool{}
	var mark func(m *protogen.Message)
	mark = func(m *protogen.Message) {
		mg.zero[m] = true
		for _, w := range c.byMsg[string(m.Desc.FullName())] {
			if shapeOf(w) == shMessage {
				mark(w.field.Message)
			}
		}
	}
	for _, w := range c.fields {
		if shapeOf(w) == shMessage && omitEmpty(w) {
			mark(w.field.Message)
		}
	}

	g := mg.g
	g.P(header)
	g.P(c.source())
	g.P()
	g.P("package taskspec")
	g.P()
	mg.entryPoints()
	for _, m := range c.messages {
		mg.toMirror(m)
		mg.fromMirror(m)
		if mg.plain[m] {
			mg.fixSites(m)
		}
		if mg.maps[m] {
			mg.ordered(m)
		}
		mg.nodes(m)
		if mg.zero[m] {
			mg.isZero(m)
		}
		if mg.text[m] {
			mg.stringsOf(m)
		}
		if mg.items[m] {
			mg.itemsOf(m)
		}
	}

	// What the schema walk knows of the structs, in its own package.
	wg := &mirrorGen{c: c, g: gen.NewGeneratedFile(walkFile, walkImport), maps: mg.maps}
	g = wg.g
	g.P(header)
	g.P(c.source())
	g.P()
	g.P("package walk")
	g.P()
	c.fieldTables(printer(g))
	g.P()
	wg.walkEntryPoints()
	for _, m := range c.messages {
		if wg.maps[m] {
			wg.intMapAt(m)
		}
	}
	for _, m := range c.messages {
		wg.reader(m)
	}
}

func (mg *mirrorGen) stub(m *protogen.Message) protogen.GoIdent { return m.GoIdent }

func (mg *mirrorGen) mirror(m *protogen.Message) protogen.GoIdent {
	return protogen.GoIdent{GoName: mirrorName(m), GoImportPath: evalImport}
}

func (mg *mirrorGen) fields(m *protogen.Message) []*walked {
	return mg.c.byMsg[string(m.Desc.FullName())]
}

func fn(m *protogen.Message, job string) string { return lowerName(mirrorName(m)) + job }

// entryPoints writes the functions the library calls, on TaskSpec.
func (mg *mirrorGen) entryPoints() {
	g, root := mg.g, mg.c.root
	name := string(root.Desc.Name())
	p := printer(g)

	path := ""
	if mg.toFails[root] {
		path = `, ""`
	}
	mg.converter(p, "toMirror converts a message to the YAML shape. Empty repeated and map fields become nil,"+
		" so that omitempty drops them as it drops the Go package's zero values; an unset message field held"+
		" by a pointer (an OMIT_UNSET field, such as kg_query) stays nil and a set one, even empty, is kept,"+
		" because YAML writes the latter as {}. An enum number the schema does not define is an *EnumError.",
		"toMirror", "m", mg.stub(root), "s", mg.mirror(root),
		fn(root, "ToMirror")+"(m, s"+path+")", mg.toFails[root])
	mg.converter(p, "fromMirror converts a decoded document to the message. The enum text must already be"+
		" known to spell a value (Validate ran, or the caller checked); text that spells none is a"+
		" *ValidationError naming the enum's field. Message fields held by value are always set, because the"+
		" YAML form always writes them; this is also what the Python library decodes.",
		"fromMirror", "s", mg.mirror(root), "m", mg.stub(root),
		fn(root, "FromMirror")+"(s, m)", mg.fromFails[root])

	comment(p, "", "literalFixSites are the plain string fields of m that yaml.v3 would write as a literal"+
		" block it cannot read back (see needsLiteralFix), in the order of the fields, with their paths; the"+
		" items of a list, and the fields of a list item, are nested. Enum spellings are never multi-line.")
	g.P("func literalFixSites(m *", mg.mirror(root), ") []fixSite {")
	if mg.plain[root] {
		g.P("return ", fn(root, "FixSites"), "(m, false, nil, nil)")
	} else {
		g.P("return nil")
	}
	g.P("}")
	g.P()

	comment(p, "", "toOrdered is m as MarshalYAML hands it to yaml.v3 when a map's keys must come in the fixed"+
		" order (see orderedKey): a copy whose maps are keyed by orderedKey.")
	g.P("func toOrdered(m *", mg.mirror(root), ") any {")
	if mg.maps[root] {
		g.P("o := new(", orderedName(root), ")")
		g.P(fn(root, "ToOrdered"), "(m, o)")
		g.P("return o")
	} else {
		g.P("return m")
	}
	g.P("}")
	g.P()

	comment(p, "", "mirrorNodes counts the nodes yaml.v3 writes for m: one per scalar, and one per mapping"+
		" or sequence plus its entries, omitempty respected. each, unless nil, is called with each field"+
		" of "+name+": its YAML key and the nodes of its key and value (0 when omitempty leaves it out).")
	g.P("func mirrorNodes(m *", mg.mirror(root), ", each func(key string, nodes int)) int {")
	g.P("return ", fn(root, "Nodes"), "(m, each)")
	g.P("}")
	g.P()

	comment(p, "", "specStrings calls each with every string m holds, as protoreflect's Range visits"+
		" them (a string field only when set, every item of a list, every key of a map), in no set order:"+
		" for the checks that every write and Validate run over all of a spec's text, without reflection.")
	g.P("func specStrings(m *", mg.stub(root), ", each func(string)) {")
	if mg.text[root] {
		g.P(fn(root, "Strings"), "(m, each)")
	}
	g.P("}")
	g.P()

	comment(p, "", "specItems calls each with every list and map m holds that is not empty, by the full name"+
		" of its field, and its number of items or entries: for the bound on the size of a spec's YAML"+
		" (sizeBound), without reflection.")
	g.P("func specItems(m *", mg.stub(root), ", each func(field string, n int)) {")
	if mg.items[root] {
		g.P(fn(root, "Items"), "(m, each)")
	}
	g.P("}")
	g.P()
}

// walkEntryPoints writes the functions the schema walk calls, on TaskSpec.
func (mg *mirrorGen) walkEntryPoints() {
	g, root := mg.g, mg.c.root
	p := printer(g)

	comment(p, "", "intMapAt returns the map field of m at path (\"a.b[2].c\", the decoder's path of a"+
		" mapping), or nil when path names no map of m: a message, a list item past the end, a field under a"+
		" nil pointer.")
	g.P("func intMapAt(m *", mg.mirror(root), ", path string) *map[string]int {")
	if mg.maps[root] {
		g.P("return ", fn(root, "IntMapAt"), "(m, path)")
	} else {
		g.P("return nil")
	}
	g.P("}")
	g.P()

	comment(p, "", "readSpec reads the mapping n, the top of the document, into m, as yaml.v3 decodes"+
		" it: n holds what the walk did not refuse (see reader). n is nil for a mapping read as empty.")
	g.P("func readSpec(r *reader, n node, m *", mg.mirror(root), ") {")
	g.P(fn(root, "Read"), "(r, n, m)")
	g.P("}")
	g.P()

	comment(p, "", "mirrorKeys are the YAML keys, in order, of the struct a mapping at path decodes into:"+
		" the fields it takes. The indexes of list items are left out of path.")
	g.P("func mirrorKeys(path string) []string {")
	g.P("switch withoutIndexes(path) {")
	mg.keysCase("", root)
	for _, w := range mg.c.fields {
		if s := shapeOf(w); s == shMessage || s == shMessagePtr || s == shMessageList {
			mg.keysCase(w.path, w.field.Message)
		}
	}
	g.P("}")
	g.P("return nil")
	g.P("}")
	g.P()
}

// converter writes the entry point name, documented by doc, that converts
// its argument in (of type inType) to a new value out (of type outType) by
// the statement call, which returns an error when fails.
func (mg *mirrorGen) converter(p func(string, ...any), doc, name, in string, inType protogen.GoIdent,
	out string, outType protogen.GoIdent, call string, fails bool) {
	g := mg.g
	comment(p, "", doc)
	g.P("func ", name, "(", in, " *", inType, ") (*", outType, ", error) {")
	g.P(out, " := new(", outType, ")")
	if fails {
		g.P("if err := ", call, "; err != nil {")
		g.P("return nil, err")
		g.P("}")
	} else {
		g.P(call)
	}
	g.P("return ", out, ", nil")
	g.P("}")
	g.P()
}

func (mg *mirrorGen) keysCase(path string, m *protogen.Message) {
	var keys []string
	for _, w := range mg.fields(m) {
		keys = append(keys, fmt.Sprintf("%q", w.field.Desc.Name()))
	}
	mg.g.P("case ", fmt.Sprintf("%q", path), ":")
	mg.g.P("return []string{", strings.Join(keys, ", "), "}")
}

// toMirror writes <m>ToMirror, which fills s from m; m may be nil (an
// unset message field), which reads as empty. A message whose conversion
// can fail takes its YAML path, for the error.
func (mg *mirrorGen) toMirror(m *protogen.Message) {
	g := mg.g
	fails := mg.toFails[m]
	params, ret := "", ""
	if fails {
		params, ret = ", path string", " error"
	}
	g.P("func ", fn(m, "ToMirror"), "(m *", mg.stub(m), ", s *", mg.mirror(m), params, ")", ret, " {")
	// call converts the message x into the mirror field at dst; path is
	// the expression of its YAML path, written only when it can fail.
	call := func(w *walked, x, dst string, path func() string) {
		sub := w.field.Message
		if mg.toFails[sub] {
			g.P("if err := ", fn(sub, "ToMirror"), "(", x, ", ", dst, ", ", path(), "); err != nil {")
			g.P("return err")
			g.P("}")
		} else {
			g.P(fn(sub, "ToMirror"), "(", x, ", ", dst, ")")
		}
	}
	for _, w := range mg.fields(m) {
		key := string(w.field.Desc.Name())
		f, get := "s."+goName(key), "m.Get"+w.field.GoName+"()"
		switch shapeOf(w) {
		case shString:
			g.P(f, " = ", get)
		case shInt:
			g.P("if err := toInt(&", f, ", ", get, ", path, ", fmt.Sprintf("%q", key), "); err != nil {")
			g.P("return err")
			g.P("}")
		case shEnum:
			e := w.field.Enum
			g.P("if text, ok := ", enumVar(e), ".toText[", get, "]; ok {")
			g.P(f, " = ", protogen.GoIdent{GoName: enumName(e), GoImportPath: evalImport}, "(text)")
			g.P("} else {")
			g.P("return &EnumError{FieldPath: join(path, ", fmt.Sprintf("%q", key), "), Enum: ",
				fmt.Sprintf("%q", e.Desc.FullName()), ", Number: int32(", get, ")}")
			g.P("}")
		case shStringList:
			g.P("if items := ", get, "; len(items) > 0 {")
			g.P(f, " = make([]string, len(items))")
			g.P("copy(", f, ", items)")
			g.P("}")
		case shMessageList:
			g.P("if items := ", get, "; len(items) > 0 {")
			g.P(f, " = make([]", mg.mirror(w.field.Message), ", len(items))")
			g.P("for j, item := range items {")
			call(w, "item", "&"+f+"[j]", func() string {
				itoa := g.QualifiedGoIdent(protogen.GoImportPath("strconv").Ident("Itoa"))
				return fmt.Sprintf(`join(path, %q) + "[" + %s(j) + "]"`, key, itoa)
			})
			g.P("}")
			g.P("}")
		case shMessage:
			call(w, get, "&"+f, func() string { return fmt.Sprintf("join(path, %q)", key) })
		case shMessagePtr:
			g.P("if x := ", get, "; x != nil {")
			g.P(f, " = new(", mg.mirror(w.field.Message), ")")
			call(w, "x", f, func() string { return fmt.Sprintf("join(path, %q)", key) })
			g.P("}")
		case shIntMap:
			g.P("if err := intMapToMirror(&", f, ", ", get, ", path, ", fmt.Sprintf("%q", key), "); err != nil {")
			g.P("return err")
			g.P("}")
		}
	}
	if fails {
		g.P("return nil")
	}
	g.P("}")
	g.P()
}

// fromMirror writes <m>FromMirror, which sets the fields of m, a new
// message, from s.
func (mg *mirrorGen) fromMirror(m *protogen.Message) {
	g := mg.g
	fails := mg.fromFails[m]
	ret := ""
	if fails {
		ret = " error"
	}
	g.P("func ", fn(m, "FromMirror"), "(s *", mg.mirror(m), ", m *", mg.stub(m), ")", ret, " {")
	call := func(w *walked, src, dst string) {
		sub := w.field.Message
		if mg.fromFails[sub] {
			g.P("if err := ", fn(sub, "FromMirror"), "(", src, ", ", dst, "); err != nil {")
			g.P("return err")
			g.P("}")
		} else {
			g.P(fn(sub, "FromMirror"), "(", src, ", ", dst, ")")
		}
	}
	for _, w := range mg.fields(m) {
		key := string(w.field.Desc.Name())
		f, out := "s."+goName(key), "m."+w.field.GoName
		switch shapeOf(w) {
		case shString:
			g.P(out, " = ", f)
		case shInt:
			g.P(out, " = int64(", f, ")")
		case shEnum:
			e := enumVar(w.field.Enum)
			g.P("if n, ok := ", e, ".fromTxt[string(", f, ")]; ok {")
			g.P(out, " = n")
			g.P("} else {")
			g.P("return enumTextError(", e, ".path, string(", f, "))")
			g.P("}")
		case shStringList:
			g.P("if len(", f, ") > 0 {")
			g.P(out, " = make([]string, len(", f, "))")
			g.P("copy(", out, ", ", f, ")")
			g.P("}")
		case shMessageList:
			g.P("if len(", f, ") > 0 {")
			g.P(out, " = make([]*", mg.stub(w.field.Message), ", len(", f, "))")
			g.P("for j := range ", f, " {")
			g.P(out, "[j] = new(", mg.stub(w.field.Message), ")")
			call(w, "&"+f+"[j]", out+"[j]")
			g.P("}")
			g.P("}")
		case shMessage:
			g.P(out, " = new(", mg.stub(w.field.Message), ")")
			call(w, "&"+f, out)
		case shMessagePtr:
			g.P("if ", f, " != nil {")
			g.P(out, " = new(", mg.stub(w.field.Message), ")")
			call(w, f, out)
			g.P("}")
		case shIntMap:
			g.P("if len(", f, ") > 0 {")
			g.P(out, " = make(map[string]int64, len(", f, "))")
			g.P("for k, v := range ", f, " {")
			g.P(out, "[k] = int64(v)")
			g.P("}")
			g.P("}")
		}
	}
	if fails {
		g.P("return nil")
	}
	g.P("}")
	g.P()
}

// fixSites writes <m>FixSites, which appends the fix sites of s to sites;
// at is where s sits in the document, for the site's path.
func (mg *mirrorGen) fixSites(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "FixSites"), "(s *", mg.mirror(m), ", nested bool, at *siteStep, sites []fixSite) []fixSite {")
	for _, w := range mg.fields(m) {
		key := fmt.Sprintf("%q", w.field.Desc.Name())
		f := "s." + goName(string(w.field.Desc.Name()))
		sub := w.field.Message
		switch shapeOf(w) {
		case shString:
			g.P("if needsLiteralFix(", f, ", nested) {")
			g.P("sites = append(sites, fixSite{&", f, ", nested, sitePath(at, ", key, ")})")
			g.P("}")
		case shStringList:
			g.P("for j := range ", f, " {")
			g.P("if needsLiteralFix(", f, "[j], true) {")
			g.P("sites = append(sites, fixSite{&", f, "[j], true, sitePath(at, ", key, `, "")})`)
			g.P("}")
			g.P("}")
		case shMessageList:
			if mg.plain[sub] {
				g.P("for j := range ", f, " {")
				g.P("sites = ", fn(sub, "FixSites"), "(&", f, `[j], true, &siteStep{&siteStep{at, `, key, `}, ""}, sites)`)
				g.P("}")
			}
		case shMessage:
			if mg.plain[sub] {
				g.P("sites = ", fn(sub, "FixSites"), "(&", f, ", nested, &siteStep{at, ", key, "}, sites)")
			}
		case shMessagePtr:
			if mg.plain[sub] {
				g.P("if ", f, " != nil {")
				g.P("sites = ", fn(sub, "FixSites"), "(", f, ", nested, &siteStep{at, ", key, "}, sites)")
				g.P("}")
			}
		}
	}
	g.P("return sites")
	g.P("}")
	g.P()
}

// orderedType is a field's type in the ordered struct of its message: the
// mirror's, but for a map (keyed by orderedKey) and a message that holds
// one (its ordered struct).
func (mg *mirrorGen) orderedType(w *walked) string {
	g := mg.g
	sub := w.field.Message
	elem := func() string {
		if mg.maps[sub] {
			return orderedName(sub)
		}
		return g.QualifiedGoIdent(mg.mirror(sub))
	}
	switch shapeOf(w) {
	case shInt:
		return "int"
	case shEnum:
		return g.QualifiedGoIdent(protogen.GoIdent{GoName: enumName(w.field.Enum), GoImportPath: evalImport})
	case shStringList:
		return "[]string"
	case shMessageList:
		return "[]" + elem()
	case shMessage:
		return elem()
	case shMessagePtr:
		return "*" + elem()
	case shIntMap:
		return "map[orderedKey]int"
	}
	return "string"
}

func orderedName(m *protogen.Message) string { return "ordered" + mirrorName(m) }

// ordered writes the ordered struct of m, a message that holds a map (the
// mirror's struct with the map keyed by orderedKey, field for field, with
// the same YAML tags), and <m>ToOrdered, which fills it from the mirror.
func (mg *mirrorGen) ordered(m *protogen.Message) {
	g := mg.g
	p := printer(g)
	name := orderedName(m)
	comment(p, "", name+" is eval."+mirrorName(m)+" with its map fields keyed by orderedKey, so that yaml.v3"+
		" writes their keys in the fixed order.")
	g.P("type ", name, " struct {")
	for _, w := range mg.fields(m) {
		tag := string(w.field.Desc.Name())
		if omitEmpty(w) {
			tag += ",omitempty"
		}
		g.P(goName(string(w.field.Desc.Name())), " ", mg.orderedType(w), " `yaml:", fmt.Sprintf("%q", tag), "`")
	}
	g.P("}")
	g.P()
	g.P("func ", fn(m, "ToOrdered"), "(s *", mg.mirror(m), ", o *", name, ") {")
	for _, w := range mg.fields(m) {
		f := goName(string(w.field.Desc.Name()))
		sub := w.field.Message
		switch s := shapeOf(w); {
		case s == shIntMap:
			g.P("o.", f, " = orderedIntMap(s.", f, ")")
		case s == shMessage && mg.maps[sub]:
			g.P(fn(sub, "ToOrdered"), "(&s.", f, ", &o.", f, ")")
		case s == shMessagePtr && mg.maps[sub]:
			g.P("if s.", f, " != nil {")
			g.P("o.", f, " = new(", orderedName(sub), ")")
			g.P(fn(sub, "ToOrdered"), "(s.", f, ", o.", f, ")")
			g.P("}")
		case s == shMessageList && mg.maps[sub]:
			g.P("if s.", f, " != nil {")
			g.P("o.", f, " = make([]", orderedName(sub), ", len(s.", f, "))")
			g.P("for j := range s.", f, " {")
			g.P(fn(sub, "ToOrdered"), "(&s.", f, "[j], &o.", f, "[j])")
			g.P("}")
			g.P("}")
		default:
			g.P("o.", f, " = s.", f)
		}
	}
	g.P("}")
	g.P()
}

// stringsOf writes <m>Strings, which calls each with every string of m, a
// message that may be nil (its getters then read empty).
func (mg *mirrorGen) stringsOf(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "Strings"), "(m *", mg.stub(m), ", each func(string)) {")
	for _, w := range mg.fields(m) {
		get := "m.Get" + w.field.GoName + "()"
		sub := w.field.Message
		switch shapeOf(w) {
		case shString:
			g.P("if s := ", get, `; s != "" {`)
			g.P("each(s)")
			g.P("}")
		case shStringList:
			g.P("for _, s := range ", get, " {")
			g.P("each(s)")
			g.P("}")
		case shIntMap:
			g.P("for k := range ", get, " {")
			g.P("each(k)")
			g.P("}")
		case shMessageList:
			if mg.text[sub] {
				g.P("for _, item := range ", get, " {")
				g.P(fn(sub, "Strings"), "(item, each)")
				g.P("}")
			}
		case shMessage, shMessagePtr:
			if mg.text[sub] {
				g.P(fn(sub, "Strings"), "(", get, ", each)")
			}
		}
	}
	g.P("}")
	g.P()
}

// itemsOf writes <m>Items, which calls each with every list and map of m
// that is not empty, by its field's full name, and its length; m may be nil.
func (mg *mirrorGen) itemsOf(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "Items"), "(m *", mg.stub(m), ", each func(field string, n int)) {")
	for _, w := range mg.fields(m) {
		get := "m.Get" + w.field.GoName + "()"
		name := fmt.Sprintf("%q", w.field.Desc.FullName())
		sub := w.field.Message
		switch shapeOf(w) {
		case shStringList, shIntMap:
			g.P("if n := len(", get, "); n > 0 {")
			g.P("each(", name, ", n)")
			g.P("}")
		case shMessageList:
			g.P("if items := ", get, "; len(items) > 0 {")
			g.P("each(", name, ", len(items))")
			if mg.items[sub] {
				g.P("for _, item := range items {")
				g.P(fn(sub, "Items"), "(item, each)")
				g.P("}")
			}
			g.P("}")
		case shMessage, shMessagePtr:
			if mg.items[sub] {
				g.P(fn(sub, "Items"), "(", get, ", each)")
			}
		}
	}
	g.P("}")
	g.P()
}

// nodes writes <m>Nodes, which counts the nodes of s written as YAML: its
// mapping, and the key and value of each field omitempty keeps.
func (mg *mirrorGen) nodes(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "Nodes"), "(s *", mg.mirror(m), ", each func(key string, nodes int)) int {")
	g.P("n := 1")
	for _, w := range mg.fields(m) {
		key := string(w.field.Desc.Name())
		f := "s." + goName(key)
		sub := w.field.Message
		omit := omitEmpty(w)
		var set, count string
		switch shapeOf(w) {
		case shString, shEnum:
			set, count = f+` != ""`, "2"
		case shInt:
			set, count = f+" != 0", "2"
		case shStringList:
			set, count = "len("+f+") > 0", "2 + len("+f+")"
		case shIntMap:
			set, count = "len("+f+") > 0", "2 + 2*len("+f+")"
		case shMessageList:
			set, count = "len("+f+") > 0", "1 + itemNodes("+f+", "+fn(sub, "Nodes")+")"
		case shMessage:
			set, count = "!"+fn(sub, "Zero")+"(&"+f+")", "1 + "+fn(sub, "Nodes")+"(&"+f+", nil)"
		case shMessagePtr:
			count = fmt.Sprintf("pointerNodes(%s, %s, %v)", f, fn(sub, "Nodes"), omit)
			omit = false // pointerNodes counts a nil pointer
		}
		if omit {
			count = "present(" + set + ", " + count + ")"
		}
		g.P("n += countField(each, ", fmt.Sprintf("%q", key), ", ", count, ")")
	}
	g.P("return n")
	g.P("}")
	g.P()
}

// isZero writes <m>Zero, which reports whether s is its type's zero value,
// as yaml.v3's omitempty reads a struct: every field zero, a slice or a map
// nil, not merely empty.
func (mg *mirrorGen) isZero(m *protogen.Message) {
	g := mg.g
	var terms []string
	for _, w := range mg.fields(m) {
		f := "s." + goName(string(w.field.Desc.Name()))
		switch shapeOf(w) {
		case shString, shEnum:
			terms = append(terms, f+` == ""`)
		case shInt:
			terms = append(terms, f+" == 0")
		case shStringList, shMessageList, shIntMap, shMessagePtr:
			terms = append(terms, f+" == nil")
		case shMessage:
			terms = append(terms, fn(w.field.Message, "Zero")+"(&"+f+")")
		}
	}
	if len(terms) == 0 {
		terms = []string{"true"}
	}
	g.P("func ", fn(m, "Zero"), "(s *", mg.mirror(m), ") bool {")
	g.P("return ", strings.Join(terms, " && "))
	g.P("}")
	g.P()
}

// intMapAt writes <m>IntMapAt, which follows path through s to a map
// field.
func (mg *mirrorGen) intMapAt(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "IntMapAt"), "(s *", mg.mirror(m), ", path string) *map[string]int {")
	rest := "_"
	for _, w := range mg.fields(m) {
		if shapeOf(w) != shIntMap && w.field.Message != nil && mg.maps[w.field.Message] {
			rest = "rest"
		}
	}
	g.P("name, index, ", rest, ", last := pathStep(path)")
	g.P("switch name {")
	for _, w := range mg.fields(m) {
		key := string(w.field.Desc.Name())
		f := "s." + goName(key)
		sub := w.field.Message
		switch s := shapeOf(w); {
		case s == shIntMap:
			g.P("case ", fmt.Sprintf("%q", key), ":")
			g.P("if index < 0 && last {")
			g.P("return &", f)
			g.P("}")
		case s == shMessage && mg.maps[sub]:
			g.P("case ", fmt.Sprintf("%q", key), ":")
			g.P("if index < 0 && !last {")
			g.P("return ", fn(sub, "IntMapAt"), "(&", f, ", rest)")
			g.P("}")
		case s == shMessagePtr && mg.maps[sub]:
			g.P("case ", fmt.Sprintf("%q", key), ":")
			g.P("if index < 0 && !last && ", f, " != nil {")
			g.P("return ", fn(sub, "IntMapAt"), "(", f, ", rest)")
			g.P("}")
		case s == shMessageList && mg.maps[sub]:
			g.P("case ", fmt.Sprintf("%q", key), ":")
			g.P("if index >= 0 && index < len(", f, ") && !last {")
			g.P("return ", fn(sub, "IntMapAt"), "(&", f, "[index], rest)")
			g.P("}")
		}
	}
	g.P("}")
	g.P("return nil")
	g.P("}")
	g.P()
}

// reader writes <m>Read, which reads the entries of the mapping n that the
// walk did not refuse into s, field by field, through the reader's typed
// setters: the decoding yaml.v3 did by reflection.
func (mg *mirrorGen) reader(m *protogen.Message) {
	g := mg.g
	g.P("func ", fn(m, "Read"), "(r *reader, n node, s *", mg.mirror(m), ") {")
	g.P("if !r.enter(n) {")
	g.P("return")
	g.P("}")
	g.P("for i := 0; i+1 < len(n.Content); i += 2 {")
	g.P("key, v := r.entry(n, i)")
	g.P("switch key {")
	for _, w := range mg.fields(m) {
		key := string(w.field.Desc.Name())
		f := "s." + goName(key)
		g.P("case ", fmt.Sprintf("%q", key), ":")
		switch shapeOf(w) {
		case shString:
			g.P("r.string(v, &", f, ")")
		case shInt:
			g.P("r.int(v, &", f, ")")
		case shEnum:
			g.P("if text, ok := r.text(v); ok {")
			g.P(f, " = ", protogen.GoIdent{GoName: enumName(w.field.Enum), GoImportPath: evalImport}, "(text)")
			g.P("}")
		case shIntMap:
			g.P("r.intMap(v, &", f, ")")
		case shMessage:
			g.P("if c, ok := r.mapping(v); ok {")
			g.P(fn(w.field.Message, "Read"), "(r, c, &", f, ")")
			g.P("}")
		case shMessagePtr:
			g.P("if c, ok := r.mapping(v); ok {")
			g.P("if ", f, " == nil {")
			g.P(f, " = new(", mg.mirror(w.field.Message), ")")
			g.P("}")
			g.P(fn(w.field.Message, "Read"), "(r, c, ", f, ")")
			g.P("} else {")
			g.P(f, " = nil")
			g.P("}")
		case shStringList:
			g.P("if items, ok := r.sequence(v); ok {")
			g.P(f, " = make([]string, 0, len(items))")
			g.P("for _, item := range items {")
			g.P("if text, ok := r.itemText(item); ok {")
			g.P(f, " = append(", f, ", text)")
			g.P("}")
			g.P("}")
			g.P("} else {")
			g.P(f, " = nil")
			g.P("}")
		case shMessageList:
			sub := mg.mirror(w.field.Message)
			g.P("if items, ok := r.sequence(v); ok {")
			g.P(f, " = make([]", sub, ", 0, len(items))")
			g.P("for _, item := range items {")
			g.P("if c, ok := r.itemMapping(item); ok {")
			g.P("var e ", sub)
			g.P(fn(w.field.Message, "Read"), "(r, c, &e)")
			g.P(f, " = append(", f, ", e)")
			g.P("}")
			g.P("}")
			g.P("} else {")
			g.P(f, " = nil")
			g.P("}")
		}
	}
	g.P("}")
	g.P("}")
	g.P("r.leave()")
	g.P("}")
	g.P()
}
