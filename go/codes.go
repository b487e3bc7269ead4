package taskspec

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// The catalogue of problems is declared in the protos: every value of
// taskspec.v1.ProblemCode (proto/taskspec/v1/problems.proto) is one kind of
// problem, and its (taskspec.v1.problem) option holds the title, severity,
// message and hint forms and an explanation; so does the problem of each
// kind of constraint (proto/taskspec/v1/options.proto) whose
// (taskspec.v1.constraint) code is not a ProblemCode value. This file reads
// them from the descriptors compiled into the generated package, as the
// Python library's taskspec._codes does, so the two languages can never
// name a problem differently. Number N is code "TS" + N in three digits.

// A Code names a kind of problem: an entry of the catalogue, "TS" and its
// number in three digits ("TS001"). The catalogue's codes are the constants
// Code... of codes_gen.go, generated from the protos (CodeUnknownKey is
// "TS001"), so that a caller can write v.Code == taskspec.CodeUnknownKey.
type Code string

// A Severity says whether a problem refuses a document: SeverityError, or
// SeverityWarning for one that is reported and accepted.
type Severity string

// The severities of the catalogue (taskspec.v1.Severity).
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// A Kind is one entry of the catalogue of problems: a code, and what the
// contract says of it. Get one with LookupProblem; Codes lists every code.
type Kind struct {
	Code        Code     // "TS001", CodeUnknownKey
	Name        string   // the ProblemCode value's name, lower case, without its prefix ("unknown_key"), or the constraint's field name ("max_len")
	Title       string   // a short title, lower case
	Severity    Severity // SeverityError or SeverityWarning: whether it refuses a document by default
	Stage       string   // "decode", "validate", "lint", "format" or "file"
	Messages    []string // every form of its message; {name} marks a value filled in
	Hints       []string // every form of its hint, none when it has none
	Reasons     []string // the sentences its messages' {reason} is filled in with, none when none
	Explanation string   // why it is a problem and what to do about it
	Example     string   // a document, or part of one, that has the problem
	Fixed       string   // the same, fixed
}

const codePrefix = "PROBLEM_CODE_"

// formTexts is the text of each form, in order.
func formTexts(forms []*taskspecv1.Form) []string {
	if len(forms) == 0 {
		return nil
	}
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = f.GetText()
	}
	return out
}

// catalogue holds every kind by code, read once at start-up; codeOrder
// lists the codes in numeric order.
var catalogue, codeOrder = readCatalogue()

func readCatalogue() (map[Code]*Kind, []Code) {
	values := taskspecv1.ProblemCode(0).Descriptor().Values()
	kinds := make(map[Code]*Kind, values.Len())
	var order []Code
	for i := range values.Len() {
		v := values.Get(i)
		if v.Number() == 0 {
			continue
		}
		opt, _ := proto.GetExtension(v.Options(), taskspecv1.E_Problem).(*taskspecv1.ProblemKind)
		k := kindOf(codeOf(v.Number()), strings.ToLower(strings.TrimPrefix(string(v.Name()), codePrefix)), opt)
		kinds[k.Code] = k
		order = append(order, k.Code)
	}
	for _, f := range declaredConstraints() {
		decl, _ := proto.GetExtension(f.Options(), taskspecv1.E_Constraint).(*taskspecv1.ConstraintKind)
		if decl.GetProblem() == nil {
			continue // a ProblemCode value's
		}
		k := kindOf(codeOf(protoreflect.EnumNumber(decl.GetCode())), string(f.Name()), decl.GetProblem())
		kinds[k.Code] = k
		order = append(order, k.Code)
	}
	slices.Sort(order)
	return kinds, order
}

func kindOf(code Code, name string, opt *taskspecv1.ProblemKind) *Kind {
	return &Kind{
		Code:        code,
		Name:        name,
		Title:       opt.GetTitle(),
		Severity:    severityName(opt.GetSeverity()),
		Stage:       opt.GetStage(),
		Messages:    formTexts(opt.GetMessageForms()),
		Hints:       formTexts(opt.GetHintForms()),
		Reasons:     formTexts(opt.GetReasons()),
		Explanation: opt.GetExplanation(),
		Example:     opt.GetExample(),
		Fixed:       opt.GetFixed(),
	}
}

// declaredConstraints are the kinds of constraint options.proto declares:
// the fields of its rules messages (the types of FieldRules' fields) that
// carry (taskspec.v1.constraint), rules message by rules message in the
// order of FieldRules, each in declaration order.
func declaredConstraints() []protoreflect.FieldDescriptor {
	var out []protoreflect.FieldDescriptor
	seen := map[protoreflect.FullName]bool{}
	types := (&taskspecv1.FieldRules{}).ProtoReflect().Descriptor().Fields()
	for i := range types.Len() {
		m := types.Get(i).Message()
		if m == nil || seen[m.FullName()] {
			continue
		}
		seen[m.FullName()] = true
		for j := range m.Fields().Len() {
			f := m.Fields().Get(j)
			if proto.HasExtension(f.Options(), taskspecv1.E_Constraint) {
				out = append(out, f)
			}
		}
	}
	return out
}

func codeOf(n protoreflect.EnumNumber) Code { return Code(fmt.Sprintf("TS%03d", n)) }

func severityName(s taskspecv1.Severity) Severity {
	switch s {
	case taskspecv1.Severity_SEVERITY_ERROR:
		return SeverityError
	case taskspecv1.Severity_SEVERITY_WARNING:
		return SeverityWarning
	}
	return ""
}

// syntaxCodes are the codes of YAML syntax problems: on those, which parser
// stops first and where can differ, so the libraries agree only that the
// document is refused with one of them (see docs/problems.md).
var syntaxCodes = map[Code]bool{
	CodeSyntax: true, CodeControlCharacter: true, CodeTabIndent: true, CodeCannotStartValue: true,
	CodeUnclosedQuote: true, CodeUnclosedFlow: true, CodeMappingValue: true, CodeIndentation: true,
	CodeBadEscape: true, CodeBlockScalarHeader: true, CodeDirective: true, CodeAnchorAliasTag: true,
	CodeRawLineBreak: true,
}

// Codes returns every code of the catalogue, in numeric order.
func Codes() []Code { return slices.Clone(codeOrder) }

// LookupProblem returns the catalogue's entry for code ("TS001", in any
// case). It is named apart from [Registry.Lookup], which finds a generator.
func LookupProblem(code Code) (Kind, bool) {
	k, ok := catalogue[Code(strings.ToUpper(string(code)))]
	if !ok {
		return Kind{}, false
	}
	out := *k
	out.Messages, out.Hints, out.Reasons = slices.Clone(k.Messages), slices.Clone(k.Hints), slices.Clone(k.Reasons)
	return out, true
}

// Explain returns the explanation of code as `taskspec explain CODE`
// prints it: its title, severity and stage, the explanation, every form of
// its message and hint, and a failing and a fixed example. ok is false for
// a code the catalogue does not have.
func Explain(code Code) (string, bool) {
	k, ok := catalogue[Code(strings.ToUpper(string(code)))]
	if !ok {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n", k.Code, k.Name, k.Title)
	fmt.Fprintf(&b, "Severity: %s. Reported by: %s.\n\n", k.Severity, k.Stage)
	b.WriteString(k.Explanation + "\n\nMessages:\n")
	for _, m := range k.Messages {
		b.WriteString("    " + m + "\n")
	}
	if len(k.Hints) > 0 {
		b.WriteString("\nHints:\n")
		for _, h := range k.Hints {
			b.WriteString("    " + h + "\n")
		}
	}
	if len(k.Reasons) > 0 {
		b.WriteString("\nReasons:\n")
		for _, r := range k.Reasons {
			b.WriteString("    " + r + "\n")
		}
	}
	b.WriteString("\nExample:\n" + indented(k.Example) + "\nFixed:\n" + indented(k.Fixed))
	return b.String(), true
}

func indented(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line != "" {
			b.WriteString("    " + line)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// fixedHint is the code's own hint, given when a problem's line names no
// prompt mistake: for the codes the design names (a tab, an unclosed quote
// or flow collection, a bad escape, a block scalar header, a directive),
// their one hint with nothing to fill in ({...}); else "".
func fixedHint(code Code) string {
	k := catalogue[code]
	if k == nil || !fixedHintCodes[code] {
		return ""
	}
	fixed := ""
	for _, h := range k.Hints {
		if !strings.Contains(h, "{") {
			if fixed != "" {
				return ""
			}
			fixed = h
		}
	}
	return fixed
}

var fixedHintCodes = map[Code]bool{
	CodeTabIndent: true, CodeUnclosedQuote: true, CodeUnclosedFlow: true,
	CodeBadEscape: true, CodeBlockScalarHeader: true, CodeDirective: true,
}
