package main

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

const codesFile = "codes_gen.go"

// A catalogueCode is one code of the catalogue, as codes_gen.go names it.
type catalogueCode struct {
	num   int32
	ident string // "CodeUnknownKey"
	title string
	from  string // what declares it, for a message that names it
}

// codeIdent is the Go name of a code named name in the catalogue: "Code"
// and the name as goName spells a field's ("unknown_key" and "UNKNOWN_KEY"
// are CodeUnknownKey, "NOT_UTF8" CodeNotUTF8).
func codeIdent(name string) string { return "Code" + goName(strings.ToLower(name)) }

// catalogueCodes lists every code of the catalogue, in numeric order: the
// values of taskspec.v1.ProblemCode but the zero value, and the kinds of
// constraint that give their own entry. A value without its
// (taskspec.v1.problem) title, or two codes with one Go name, stops
// generation.
func (c *contract) catalogueCodes(gen *protogen.Plugin) ([]catalogueCode, error) {
	pf, ok := gen.FilesByPath[problemsFile]
	if !ok {
		return nil, fmt.Errorf("%s is not in the request: the catalogue is read from it", problemsFile)
	}
	enum := pf.Desc.Enums().ByName("ProblemCode")
	ext := pf.Desc.Extensions().ByName("problem")
	if enum == nil || ext == nil || ext.Message() == nil {
		return nil, fmt.Errorf("%s: no enum ProblemCode or extension problem: the catalogue is read from them", problemsFile)
	}
	const prefix = "PROBLEM_CODE_"
	var out []catalogueCode
	var problems []string
	for i := range enum.Values().Len() {
		v := enum.Values().Get(i)
		if v.Number() == 0 {
			continue
		}
		kind, err := extension(v.Options(), ext)
		if err != nil || kind == nil {
			problems = append(problems, fmt.Sprintf("%s: %s has no (taskspec.v1.problem)%s", problemsFile, v.FullName(), errText(err)))
			continue
		}
		out = append(out, catalogueCode{
			num:   int32(v.Number()),
			ident: codeIdent(strings.TrimPrefix(string(v.Name()), prefix)),
			title: titleOf(kind),
			from:  string(v.FullName()),
		})
	}
	for _, k := range c.kinds {
		if k.problem == nil {
			continue // a ProblemCode value's
		}
		parts := strings.Split(k.full, ".")
		out = append(out, catalogueCode{num: k.num, ident: codeIdent(parts[len(parts)-1]), title: titleOf(k.problem), from: k.full})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].num < out[j].num })
	seen := map[string]string{}
	for _, cc := range out {
		if cc.title == "" {
			problems = append(problems, fmt.Sprintf("%s has no title: its code's doc comment is its title", cc.from))
		}
		if prev, dup := seen[cc.ident]; dup {
			problems = append(problems, fmt.Sprintf("%s and %s are both %s: rename one", prev, cc.from, cc.ident))
		}
		seen[cc.ident] = cc.from
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, fmt.Errorf("%s%s", problems[0], andMore(problems))
	}
	return out, nil
}

func titleOf(kind protoreflect.Message) string {
	return kind.Get(kind.Descriptor().Fields().ByName("title")).String()
}

// codesGo writes codes_gen.go: the constants of the catalogue's codes.
func (c *contract) codesGo(gen *protogen.Plugin) error {
	codes, err := c.catalogueCodes(gen)
	if err != nil {
		return err
	}
	p := printer(gen.NewGeneratedFile(codesFile, libImport))
	p("%s", header)
	p("// source: %s, %s", problemsFile, optionsFile)
	p("")
	p("package taskspec")
	p("")
	comment(p, "", fmt.Sprintf("The codes of the catalogue, one for each value of taskspec.v1.ProblemCode (%s)"+
		" and each kind of constraint of %s that gives its own entry, in numeric order."+
		" Each is documented by its title; LookupProblem and Explain give the rest of its entry.", problemsFile, optionsFile))
	p("const (")
	for i, cc := range codes {
		if i > 0 {
			p("")
		}
		comment(p, "\t", fmt.Sprintf("%s (TS%03d): %s.", cc.ident, cc.num, cc.title))
		p("\t%s Code = \"TS%03d\"", cc.ident, cc.num)
	}
	p(")")
	return nil
}
