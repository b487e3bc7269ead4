package main

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

const (
	formsFile   = "internal/catalogue/forms_gen.go"
	formsImport = libImport + "/internal/catalogue"
)

// A declaredForm is one form of the catalogue, as forms_gen.go names it.
type declaredForm struct {
	ident, code, kind, id, text string
}

// formLists are the lists of a ProblemKind that hold forms: the field,
// the Kind constant of package catalogue, and the prefix of a form's Go
// name.
var formLists = [...]struct{ field, kind, prefix string }{
	{"message_forms", "Message", "Msg"},
	{"hint_forms", "Hint", "Hint"},
	{"reasons", "Reason", "Reason"},
}

// formsOf lists the forms of the repeated Form field named field of m.
func formsOf(m protoreflect.Message, field string) [][2]string {
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(field))
	if fd == nil {
		return nil
	}
	list := m.Get(fd).List()
	out := make([][2]string, 0, list.Len())
	for i := range list.Len() {
		f := list.Get(i).Message()
		fields := f.Descriptor().Fields()
		out = append(out, [2]string{f.Get(fields.ByName("id")).String(), f.Get(fields.ByName("text")).String()})
	}
	return out
}

// formsGo writes internal/catalogue/forms_gen.go: a variable for each
// form of the catalogue (MsgUnknownKeyAtPath, HintUnknownKeyDidYouMean,
// ReasonUnsupported..., WordSequence) and yaml.v3's rows of the
// parser-problem table (YAMLv3Problems), read from the descriptors of
// problems.proto and options.proto.
func (c *contract) formsGo(gen *protogen.Plugin) error {
	pf, ok := gen.FilesByPath[problemsFile]
	if !ok {
		return fmt.Errorf("%s is not in the request: the catalogue is read from it", problemsFile)
	}
	enum := pf.Desc.Enums().ByName("ProblemCode")
	problemExt := pf.Desc.Extensions().ByName("problem")
	tablesExt := pf.Desc.Extensions().ByName("problem_tables")
	if enum == nil || problemExt == nil || tablesExt == nil {
		return fmt.Errorf("%s: no enum ProblemCode or extension problem or problem_tables: the catalogue is read from them", problemsFile)
	}
	codes, err := c.catalogueCodes(gen)
	if err != nil {
		return err
	}
	kinds := map[int32]protoreflect.Message{}
	for i := range enum.Values().Len() {
		v := enum.Values().Get(i)
		if kind, err := extension(v.Options(), problemExt); err == nil && kind != nil {
			kinds[int32(v.Number())] = kind
		}
	}
	for _, k := range c.kinds {
		if k.problem != nil {
			kinds[k.num] = k.problem
		}
	}
	var forms []declaredForm
	byRef := map[string]string{} // "TS001/at_path" -> Go name of the message form
	seen := map[string]string{}
	var problems []string
	for _, cc := range codes {
		kind := kinds[cc.num]
		code := fmt.Sprintf("TS%03d", cc.num)
		name := strings.TrimPrefix(cc.ident, "Code")
		if kind == nil {
			problems = append(problems, fmt.Sprintf("%s: %s has no catalogue entry", cc.from, code))
			continue
		}
		for _, old := range [...]string{"messages", "hints"} {
			if fd := kind.Descriptor().Fields().ByName(protoreflect.Name(old)); fd != nil && kind.Has(fd) {
				problems = append(problems, fmt.Sprintf("%s: %s: %s is no longer read: give each form in %s_forms, with an id and its text", cc.from, code, old, strings.TrimSuffix(old, "s")))
			}
		}
		if len(formsOf(kind, "message_forms")) == 0 {
			problems = append(problems, fmt.Sprintf("%s: %s: no message_forms: give each form its message takes, with an id and its text", cc.from, code))
		}
		for _, l := range formLists {
			for _, f := range formsOf(kind, l.field) {
				d := declaredForm{ident: l.prefix + name + goName(f[0]), code: code, kind: l.kind, id: f[0], text: f[1]}
				if prev, dup := seen[d.ident]; dup {
					problems = append(problems, fmt.Sprintf("%s: %s %q and %s are both %s: rename one", cc.from, l.field, f[0], prev, d.ident))
				}
				seen[d.ident] = fmt.Sprintf("%s %q", l.field, f[0])
				if l.kind == "Message" {
					byRef[code+"/"+f[0]] = d.ident
				}
				forms = append(forms, d)
			}
		}
	}
	tables, err := extension(enum.Options(), tablesExt)
	if err != nil {
		return fmt.Errorf("%s: ProblemCode's (taskspec.v1.problem_tables): %w", problemsFile, err)
	}
	var rows []string
	if tables != nil {
		for _, w := range formsOf(tables, "words") {
			forms = append(forms, declaredForm{ident: "Word" + goName(w[0]), kind: "Word", id: w[0], text: w[1]})
		}
		list := tables.Get(tables.Descriptor().Fields().ByName("parser_problems")).List()
		for i := range list.Len() {
			row := list.Get(i).Message()
			fields := row.Descriptor().Fields()
			if row.Get(fields.ByName("parser")).String() != "yaml.v3" {
				continue
			}
			code := fmt.Sprintf("TS%03d", row.Get(fields.ByName("code")).Enum())
			form := row.Get(fields.ByName("form")).String()
			ident, ok := byRef[code+"/"+form]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: parser_problems row %d names %s message form %q, which it does not have", problemsFile, i+1, code, form))
				continue
			}
			var phrases []string
			pl := row.Get(fields.ByName("phrases")).List()
			for j := range pl.Len() {
				phrases = append(phrases, strconv.Quote(pl.Get(j).String()))
			}
			rows = append(rows, fmt.Sprintf("\t{Phrases: []string{%s}, Form: %s},", strings.Join(phrases, ", "), ident))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s%s", problems[0], andMore(problems))
	}
	p := printer(gen.NewGeneratedFile(formsFile, formsImport))
	p("%s", header)
	p("// source: %s, %s", problemsFile, optionsFile)
	p("")
	p("package catalogue")
	p("")
	comment(p, "", "The forms of the catalogue, one for each form of each entry's message_forms (Msg),"+
		" hint_forms (Hint) and reasons (Reason), named by the entry's code name and the form's id,"+
		" and one for each of the words messages share (Word).")
	p("var (")
	for i, f := range forms {
		if i > 0 {
			p("")
		}
		comment(p, "\t", fmt.Sprintf("%s is %s.", f.ident, strconv.Quote(f.text)))
		p("\t%s = Form{Code: %q, Kind: %s, ID: %q, Text: %s}", f.ident, f.code, f.kind, f.id, strconv.Quote(f.text))
	}
	p(")")
	p("")
	comment(p, "", "All is every form above, in the catalogue's order.")
	p("var All = []Form{")
	for _, f := range forms {
		p("\t%s,", f.ident)
	}
	p("}")
	p("")
	comment(p, "", "YAMLv3Problems are yaml.v3's rows of the parser-problem table, in the order they are tried: the first with a phrase the parser's text holds gives the form.")
	p("var YAMLv3Problems = []ParserProblem{")
	for _, r := range rows {
		p("%s", r)
	}
	p("}")
	return nil
}

const serviceWordsFile = "taskspecgrpc/words_gen.go"

// serviceWordsGo writes taskspecgrpc/words_gen.go: one function for each
// of the GeneratorService's words (ProblemTables' service_messages), named
// words and the form's id ("wordsNoSpec"), taking the form's arguments in
// the order the text names them and returning the text with them filled
// in. The gRPC module is a module of its own, so it gets its words as
// code rather than through the core module's internal packages.
func serviceWordsGo(gen *protogen.Plugin) error {
	pf, ok := gen.FilesByPath[problemsFile]
	if !ok {
		return fmt.Errorf("%s is not in the request: the catalogue is read from it", problemsFile)
	}
	enum := pf.Desc.Enums().ByName("ProblemCode")
	tablesExt := pf.Desc.Extensions().ByName("problem_tables")
	if enum == nil || tablesExt == nil {
		return fmt.Errorf("%s: no enum ProblemCode or extension problem_tables: the catalogue is read from them", problemsFile)
	}
	tables, err := extension(enum.Options(), tablesExt)
	if err != nil {
		return fmt.Errorf("%s: ProblemCode's (taskspec.v1.problem_tables): %w", problemsFile, err)
	}
	var forms [][2]string
	if tables != nil {
		forms = formsOf(tables, "service_messages")
	}
	p := printer(gen.NewGeneratedFile(serviceWordsFile, grpcImport))
	p("%s", header)
	p("// source: %s", problemsFile)
	p("")
	p("package taskspecgrpc")
	for _, f := range forms {
		var params, parts []string
		seen := map[string]bool{}
		text := f[1]
		for text != "" {
			i := strings.IndexByte(text, '{')
			end := -1
			if i >= 0 {
				end = strings.IndexByte(text[i:], '}')
			}
			name := ""
			if i >= 0 && end > 1 {
				name = text[i+1 : i+end]
			}
			if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
				if i < 0 || end < 0 {
					parts = append(parts, strconv.Quote(text))
					break
				}
				parts = append(parts, strconv.Quote(text[:i+end+1]))
				text = text[i+end+1:]
				continue
			}
			if i > 0 {
				parts = append(parts, strconv.Quote(text[:i]))
			}
			parts = append(parts, name)
			if !seen[name] {
				seen[name] = true
				params = append(params, name)
			}
			text = text[i+end+1:]
		}
		if len(parts) == 0 {
			parts = []string{`""`}
		}
		ident := "words" + goName(f[0])
		p("")
		comment(p, "", fmt.Sprintf("%s is %s.", ident, strconv.Quote(f[1])))
		sig := ""
		if len(params) > 0 {
			sig = strings.Join(params, ", ") + " string"
		}
		p("func %s(%s) string {", ident, sig)
		p("\treturn %s", strings.Join(parts, " + "))
		p("}")
	}
	return nil
}
