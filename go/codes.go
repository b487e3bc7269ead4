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

// A Kind is one entry of the catalogue of problems: a code, and what the
// contract says of it. Get one with Lookup; Codes lists every code.
type Kind struct {
	Code        string   // "TS001"
	Name        string   // the ProblemCode value's name, lower case, without its prefix ("unknown_key"), or the constraint's field name ("max_len")
	Title       string   // a short title, lower case
	Severity    string   // "error" or "warning": whether it refuses a document by default
	Stage       string   // "decode", "validate", "lint", "format" or "file"
	Messages    []string // every form of its message; {name} marks a value filled in
	Hints       []string // every form of its hint, none when it has none
	Explanation string   // why it is a problem and what to do about it
	Example     string   // a document, or part of one, that has the problem
	Fixed       string   // the same, fixed
}

const (
	severityError   = "error"
	severityWarning = "warning"
	codePrefix      = "PROBLEM_CODE_"
)

// catalogue holds every kind by code, read once at start-up; codeOrder
// lists the codes in numeric order.
var catalogue, codeOrder = readCatalogue()

func readCatalogue() (map[string]*Kind, []string) {
	values := taskspecv1.ProblemCode(0).Descriptor().Values()
	kinds := make(map[string]*Kind, values.Len())
	var order []string
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

func kindOf(code, name string, opt *taskspecv1.ProblemKind) *Kind {
	return &Kind{
		Code:        code,
		Name:        name,
		Title:       opt.GetTitle(),
		Severity:    severityName(opt.GetSeverity()),
		Stage:       opt.GetStage(),
		Messages:    opt.GetMessages(),
		Hints:       opt.GetHints(),
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

func codeOf(n protoreflect.EnumNumber) string { return fmt.Sprintf("TS%03d", n) }

func severityName(s taskspecv1.Severity) string {
	switch s {
	case taskspecv1.Severity_SEVERITY_ERROR:
		return severityError
	case taskspecv1.Severity_SEVERITY_WARNING:
		return severityWarning
	}
	return ""
}

// codeNamed is the code of the ProblemCode value PROBLEM_CODE_<name>. It
// panics for a name the catalogue lacks: the names are this package's
// constants, so that is a build mistake a test catches at once.
func codeNamed(name string) string {
	v := taskspecv1.ProblemCode(0).Descriptor().Values().ByName(protoreflect.Name(codePrefix + name))
	if v == nil {
		panic("taskspec: the catalogue has no PROBLEM_CODE_" + name)
	}
	return codeOf(v.Number())
}

// The codes this package reports, by the name of their ProblemCode value.
var (
	codeUnknownKey     = codeNamed("UNKNOWN_KEY")
	codeDuplicateKey   = codeNamed("DUPLICATE_KEY")
	codeWrongType      = codeNamed("WRONG_TYPE")
	codeUnsupported    = codeNamed("UNSUPPORTED")
	codeSyntax         = codeNamed("SYNTAX")
	codeLimit          = codeNamed("LIMIT")
	codeEncoding       = codeNamed("ENCODING")
	codeControl        = codeNamed("CONTROL_CHARACTER")
	codeTabIndent      = codeNamed("TAB_INDENT")
	codeCannotStart    = codeNamed("CANNOT_START_VALUE")
	codeUnclosedQuote  = codeNamed("UNCLOSED_QUOTE")
	codeUnclosedFlow   = codeNamed("UNCLOSED_FLOW")
	codeMappingValue   = codeNamed("MAPPING_VALUE")
	codeIndentation    = codeNamed("INDENTATION")
	codeBadEscape      = codeNamed("BAD_ESCAPE")
	codeBlockHeader    = codeNamed("BLOCK_SCALAR_HEADER")
	codeDirective      = codeNamed("DIRECTIVE")
	codeAnchorAliasTag = codeNamed("ANCHOR_ALIAS_TAG")
	codeBinarySyntax   = codeNamed("BINARY_SYNTAX")
	codeNotUTF8        = codeNamed("NOT_UTF8")
	codeTooLarge       = codeNamed("TOO_LARGE")
	codeArtifactPath   = codeNamed("ARTIFACT_PATH")
	codeLineBreak      = codeNamed("YAML_LINE_BREAK")
	codeRawLineBreak   = codeNamed("RAW_LINE_BREAK")
	codePromptCommand  = codeNamed("PROMPT_HAS_COMMAND")
	codeCommentInValue = codeNamed("COMMENT_IN_VALUE")
	// The codes of two kinds of constraint, whose messages say that a key
	// is missing already (see placed); every rule's code is its kind's
	// (taskspec.v1.constraint) code, in the table rules.
	codeNotBlank = codeNamed("NOT_BLANK")
	codeNotEmpty = codeNamed("NOT_EMPTY")
)

// syntaxCodes are the codes of YAML syntax problems: on those, which parser
// stops first and where can differ, so the libraries agree only that the
// document is refused with one of them (see docs/problems.md).
var syntaxCodes = map[string]bool{
	codeSyntax: true, codeControl: true, codeTabIndent: true, codeCannotStart: true,
	codeUnclosedQuote: true, codeUnclosedFlow: true, codeMappingValue: true, codeIndentation: true,
	codeBadEscape: true, codeBlockHeader: true, codeDirective: true, codeAnchorAliasTag: true,
	codeRawLineBreak: true,
}

// Codes returns every code of the catalogue, in numeric order.
func Codes() []string { return slices.Clone(codeOrder) }

// Lookup returns the catalogue's entry for code ("TS001", in any case).
func Lookup(code string) (Kind, bool) {
	k, ok := catalogue[strings.ToUpper(code)]
	if !ok {
		return Kind{}, false
	}
	out := *k
	out.Messages, out.Hints = slices.Clone(k.Messages), slices.Clone(k.Hints)
	return out, true
}

// Explain returns the explanation of code as `taskspec explain CODE`
// prints it: its title, severity and stage, the explanation, every form of
// its message and hint, and a failing and a fixed example. ok is false for
// a code the catalogue does not have.
func Explain(code string) (string, bool) {
	k, ok := catalogue[strings.ToUpper(code)]
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
func fixedHint(code string) string {
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

var fixedHintCodes = map[string]bool{
	codeTabIndent: true, codeUnclosedQuote: true, codeUnclosedFlow: true,
	codeBadEscape: true, codeBlockHeader: true, codeDirective: true,
}
