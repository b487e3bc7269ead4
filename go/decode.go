package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/budget"
	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/walk"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlrules"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

const decodePrefix = errPrefix + "decode task spec: "

// A StrictError reports a YAML document that is refused on purpose,
// although a YAML library would read it: wherever reading it would lose data
// silently (a fraction in an integer field, a null list item or key, a
// second document, a key given twice through an alias), or where YAML
// readers disagree on its meaning (merge keys, tags, a byte order mark at
// the start of a line or outside any value, a tab starting a
// line among comments), and for a
// document over [MaxNodes] nodes or [MaxDepth] levels, which is refused
// before it is built. Agreeing with every reader matters more than
// accepting the document. The eval package read these documents, or
// misread them; the Python library refuses the same ones.
//
// A StrictError is found with errors.As, from the [*DecodeError] that
// [ParseYAML] and [Load] return.
type StrictError struct {
	FieldPath string // the field, "" for the document as a whole
	Line      int    // 1-based, 0 when unknown
	Column    int
	Reason    string
}

func (e *StrictError) Error() string {
	var b strings.Builder
	b.WriteString(decodePrefix)
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.FieldPath != "" {
		b.WriteString(e.FieldPath + ": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// ParseYAML decodes a TaskSpec from the YAML document data and validates
// it. Unknown and duplicate keys are rejected at every level, and a
// document that only breaks rules gives a [*ValidationError] ("taskspec:
// invalid language \"cobol\"").
//
// A document with any other problem gives a [*DecodeError] whose message
// starts with "taskspec: decode task spec: "; when it breaks a rule too,
// errors.As finds a *ValidationError in it as well (see DecodeError).
// Either error holds every problem of the document, as [Check] lists
// them, with the one a reader that stops at the first meets first, so that
// Error() names it. A document that would lose data
// or that YAML readers disagree on is refused too (see [StrictError]).
//
// Parsing is about meaning: key order, flow style, comments, anchors and
// indentation do not matter. Only [MarshalYAML] is canonical.
func ParseYAML(data []byte) (*taskspecv1.TaskSpec, error) {
	r := examine(data, true)
	if r.err != nil {
		return nil, r.err
	}
	return r.spec, nil
}

// DecodeYAML is ParseYAML without Validate, for tools that read invalid
// sidecars to report or repair them. The decoding is just as strict. An
// enum spelling the schema does not have ("cobol") cannot be held by the
// message, so it is still an error, a *ValidationError naming the field;
// an empty one decodes to the UNSPECIFIED value.
func DecodeYAML(data []byte) (*taskspecv1.TaskSpec, error) {
	m, w, err := decode(data)
	if err != nil {
		forEditorsError(w.text, err)
		return nil, err
	}
	if len(w.problems) > 0 {
		vs := slices.Clone(w.problems)
		forEditors(w.text, vs)
		return nil, newDecodeError(vs, nil)
	}
	return fromMirror(m)
}

// decode reads the first document into the Go package's struct shape.
//
// The document is parsed once, into a yaml.Node tree. The schema walk over
// the tree (package walk) finds every unknown key, duplicate key and value
// of the wrong type, and applies the stricter rules, each recorded in
// w.problems; the tree without what it refused is then decoded exactly as
// the Go package's decoder would decode it. A document that cannot be read
// at all gives a *DecodeError with its one problem.
func decode(data []byte) (*eval.TaskSpec, *reading, error) {
	w := &reading{text: source.New(data)}
	m, err := w.decode()
	if err != nil {
		de := alone(err, w.refusal, data)
		if w.errPlain && err == error(w.err) || w.goRejects {
			de.Err = nil // the Go package refuses it too: no stricter refusal
		}
		return nil, w, de
	}
	for _, a := range m.SolutionArtifacts {
		w.artifactPaths = append(w.artifactPaths, a.Path)
	}
	return m, w, nil
}

func (w *reading) decode() (*eval.TaskSpec, error) {
	data := w.text.Bytes()
	if w.rules == nil {
		w.rules = yamlrules.For(w.text, nil)
	}
	if len(data) > MaxDocumentBytes {
		return nil, w.refuse(CodeLimit, &StrictError{Reason: fmt.Sprintf("document is larger than %d bytes", MaxDocumentBytes)})
	}
	if hasWideBOM(data) {
		return nil, w.refuse(CodeEncoding, &StrictError{Line: 1, Column: 1, Reason: "UTF-16 and UTF-32 input is not supported: sidecars are UTF-8"})
	}
	// Whether the Go package's decoder refuses a text refused before it is
	// read (then the refusal is no stricter one) is its own.
	if p := w.rules.TwoByteOrderMarks(); p != nil {
		w.goRejects = goPackageRejects(data)
		return nil, w.rulesRefuse(p)
	}
	// Text that is not UTF-8 is refused before it is read as YAML, as the
	// Python library refuses it before libyaml sees it: whatever else the
	// text holds (a %YAML directive, a syntax error) comes second. Only two
	// byte order marks at the start come first, as in the Python library.
	if !utf8.Valid(data) {
		w.goRejects = goPackageRejects(data)
		return nil, w.refuse(CodeEncoding, notUTF8(data))
	}
	if p := w.rules.InnerByteOrderMark(); p != nil {
		w.goRejects = goPackageRejects(data)
		return nil, w.rulesRefuse(p)
	}
	doc, over, err := w.rules.Parse(budget.Limits{Nodes: MaxNodes, Depth: MaxDepth})
	if over != nil {
		return nil, w.rulesRefuse(over)
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			// No document: yaml.v3 read nothing but comments and blanks.
			if p := w.rules.Empty(); p != nil {
				w.goRejects = true // the Go package refuses an empty text too
				return nil, w.rulesRefuse(p)
			}
		}
		// yaml.v3 cannot read some text the Python library reads and then
		// refuses for a reason of its own: the same refusal here.
		if m, e, ok := w.readsStricter(err); ok {
			return m, e
		}
		return nil, fmt.Errorf("%s%w", decodePrefix, err)
	}
	if doc.Kind == 0 {
		return nil, w.refuse(CodeWrongType, errEmptyDocument)
	}
	walked := w.walk(doc)
	if r, found := yamlscan.FirstControl(data, len(data)); found {
		// The same for a character no YAML reader takes, after the first
		// document: libyaml's reader refuses it as it reads the input.
		return nil, w.refuse(CodeControlCharacter, &StrictError{Reason: fmt.Sprintf("invalid YAML: control characters are not allowed (character #x%04X)", r)})
	}
	// The stricter rules: a misread in the text, then a second document,
	// then the walk.
	if p, err := w.rules.After(doc); err != nil {
		return nil, fmt.Errorf("%s%w", decodePrefix, err)
	} else if p != nil {
		return nil, w.rulesRefuse(p)
	}
	// Last of them, a byte order mark outside any value, as
	// in the Python library: once the document is read, before the walk
	// refuses anything.
	if p := w.rules.ByteOrderMarks(); p != nil {
		w.goRejects, w.markRefused = goPackageRejects(data), true
		return nil, w.rulesRefuse(p)
	}
	if walked.Stop {
		// Past a limit, or at the top, nothing more is read.
		return nil, w.refuse(w.errCode, w.err)
	}
	return walked.Spec, nil
}

// walk runs the schema walk over doc and keeps what it found: its
// problems, as Violations, its first refusal, as the StrictError a caller
// that stops at one problem sees, and where each field's value stands.
func (w *reading) walk(doc *yaml.Node) *walk.Result {
	r := walk.Walk(doc, w.rules, MaxNodes)
	for _, p := range r.Problems {
		v := Violation{FieldPath: p.Path, Message: withPath(p.Path, p.Message),
			Line: p.Line, Column: p.Column, Code: codeOf(protoreflect.EnumNumber(p.Code)), Hint: p.Hint,
			Severity: SeverityError}
		if p.Suggestion != "" {
			v.Fix = replaceAt(w.text, p.Line, p.Column, p.Was, p.Suggestion)
		}
		w.problems = append(w.problems, v)
	}
	if p := r.First; p != nil {
		w.err = &StrictError{FieldPath: p.Path, Line: p.Line, Column: p.Column, Reason: p.Message}
		w.errCode, w.errPlain = codeOf(protoreflect.EnumNumber(p.Code)), r.FirstPlain
	}
	w.goRejects = w.goRejects || r.GoRejects
	w.pos, w.values = r.Positions, r.Values
	return r
}

// reading is the reading of one document: its text and reading rules, and
// what the schema walk found in it. It records every problem in problems
// (the first refusal also in err) and the position of each field's value
// in pos.
type reading struct {
	text  *source.Text     // the document: its bytes, lines and columns
	rules *yamlrules.Rules // the YAML reading rules of the text
	pos   *walk.Positions
	err   *StrictError
	// errCode is the code of err, and refusal that of the StrictError
	// decode returns (a StrictError has no field for its code).
	errCode, refusal Code
	// problems lists every problem the walk met, in walk order (which is
	// document order), each as the Python library's collecting walk words
	// it.
	problems []Violation
	// values holds the scalar text of each field as written, for the
	// hints of misspelt enums; artifactPaths the artifact paths read.
	values        *walk.Texts
	artifactPaths []string
	errPlain      bool // err is a problem yaml.v3 also refuses, not a stricter rule
	goRejects     bool // the Go package's decoder refuses the document too
	// markRefused tells that the text was refused for a byte order mark
	// outside any value, once read.
	markRefused bool
}

// refuse is the refusal e, of the given code, that decode returns.
func (w *reading) refuse(code Code, e *StrictError) error {
	w.refusal = code
	return e
}

// goPackageRejects reports whether the Go package's decoder refuses data,
// for a text this package refuses before reading it: then the refusal is
// no stricter one.
func goPackageRejects(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var m eval.TaskSpec
	return dec.Decode(&m) != nil
}

func hasWideBOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) ||
		bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF})
}

// join is the field path of name inside path (the generated code's name
// for wording.Path).
func join(path, name string) string { return wording.Path(path, name) }

// notUTF8 is the refusal of input that is not UTF-8, at its first bad byte,
// in the Python library's words.
func notUTF8(data []byte) *StrictError {
	at := invalidUTF8At(data)
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	return &StrictError{
		Line:   bytes.Count(data[:at], []byte("\n")) + 1,
		Column: utf8.RuneCount(data[start:at]) + 1,
		Reason: fmt.Sprintf("input is not valid UTF-8 (byte 0x%02x at offset %d)", data[at], at),
	}
}
