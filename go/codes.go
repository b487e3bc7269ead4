package taskspec

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// The catalogue of problems is declared once, in
// proto/taskspec/v1/problems.proto: every value of taskspec.v1.ProblemCode
// is one kind of problem, and its (taskspec.v1.problem) option holds the
// title, severity, message and hint forms and an explanation. This file
// reads it from the descriptors compiled into the generated package, as the
// Python library's taskspec._codes does, so the two languages can never
// name a problem differently. Value N is code "TS" + N in three digits.

// A Kind is one entry of the catalogue of problems: a code, and what the
// contract says of it. Get one with Lookup; Codes lists every code.
type Kind struct {
	Code        string   // "TS001"
	Name        string   // the ProblemCode value's name, lower case, without its prefix: "unknown_key"
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
		k := &Kind{
			Code:        codeOf(v.Number()),
			Name:        strings.ToLower(strings.TrimPrefix(string(v.Name()), codePrefix)),
			Title:       opt.GetTitle(),
			Severity:    severityName(opt.GetSeverity()),
			Stage:       opt.GetStage(),
			Messages:    opt.GetMessages(),
			Hints:       opt.GetHints(),
			Explanation: opt.GetExplanation(),
			Example:     opt.GetExample(),
			Fixed:       opt.GetFixed(),
		}
		kinds[k.Code] = k
		order = append(order, k.Code)
	}
	slices.Sort(order)
	return kinds, order
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
	codeJSONSyntax     = codeNamed("JSON_SYNTAX")
	codeBinarySyntax   = codeNamed("BINARY_SYNTAX")
	codeNotUTF8        = codeNamed("NOT_UTF8")
	codeTooLarge       = codeNamed("TOO_LARGE")
	codeArtifactPath   = codeNamed("ARTIFACT_PATH")
	codeLineBreak      = codeNamed("YAML_LINE_BREAK")
	codePromptCommand  = codeNamed("PROMPT_HAS_COMMAND")
	codeCommentInValue = codeNamed("COMMENT_IN_VALUE")
)

// ruleCode is the code of a rule's kind of check: the ProblemCode value
// named as the options' Check value is (CHECK_AT_LEAST:
// PROBLEM_CODE_AT_LEAST), as the Python library's RULE_CODES reads it.
var ruleCode = map[ruleCheck]string{
	checkEquals:   codeNamed("EQUALS"),
	checkAtLeast:  codeNamed("AT_LEAST"),
	checkNotBlank: codeNamed("NOT_BLANK"),
	checkDefined:  codeNamed("DEFINED"),
	checkNotEmpty: codeNamed("NOT_EMPTY"),
}

// syntaxCodes are the codes of YAML syntax problems: on those, which parser
// stops first and where can differ, so the libraries agree only that the
// document is refused with one of them (see docs/problems.md).
var syntaxCodes = map[string]bool{
	codeSyntax: true, codeControl: true, codeTabIndent: true, codeCannotStart: true,
	codeUnclosedQuote: true, codeUnclosedFlow: true, codeMappingValue: true, codeIndentation: true,
	codeBadEscape: true, codeBlockHeader: true, codeDirective: true, codeAnchorAliasTag: true,
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
// its message and hint, and a failing and a fixed example. The text is the
// Python library's explain(code), byte for byte.
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
