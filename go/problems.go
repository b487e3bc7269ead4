package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/walk"
	"github.com/taskspec/taskspec/go/internal/wording"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// This file turns what the decoder and the rules find into the contract's
// problems (see docs/problems.md): a code and the catalogue's words for
// each, every problem of a document at once (Check), and the prompt-mistake
// hints. The Python library's taskspec.check gives the same list.

// Check returns every problem of the YAML document data, first first:
// decode problems (each unknown key, duplicate key and value of the wrong
// type, in document order), then the broken rules of what could be read,
// then warnings (TS301, an artifact path that leaves the workspace; TS302,
// a raw NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR; TS303, a prompt that
// holds a verification command word for word; TS304, a ' #' that ends a
// plain prompt; TS305, a raw byte order mark in a value). YAML that cannot be
// read at all (a syntax problem, a limit, an encoding) is reported alone.
// One mistake gives one problem: a rule on a value that could not be read
// is left out, and so are the rules of a field an unknown key's hint
// names. A valid document without warnings gives nil.
//
// The Python library's check gives the same list for every document that
// is not a YAML syntax error: the same codes, field paths, positions,
// messages, hints and severities in the same order.
func Check(data []byte) []Violation { return examine(data, false).problems }

// CheckFormat is Check for a document in format f: for JSON and binary
// protobuf, the problem that refuses the document (data that is not JSON,
// or not protobuf, at all); or else every decode problem (for JSON, each
// unknown key, field given twice and value of the wrong type), then the
// broken rules of what could be read, then the warnings. Positions are 0:
// these readers do not keep them.
func CheckFormat(data []byte, f Format) []Violation {
	var spec *taskspecv1.TaskSpec
	var problems []Violation
	var err error
	switch f {
	case YAML:
		return Check(data)
	case JSON:
		spec, err = readJSON(data, &problems)
	case Binpb:
		spec, err = readBinpb(data, &problems)
	default:
		_, err = ParseFormat(string(f))
	}
	if err != nil {
		return errorProblems(err)
	}
	// As for YAML, one mistake gives one problem (see examine).
	hidden := hiddenBy(problems)
	for _, v := range Violations(spec) {
		if !under(v.FieldPath, hidden) {
			problems = append(problems, v)
		}
	}
	return append(problems, warnings(spec, nil, nil)...)
}

// errorProblems returns the problems an error of this package holds.
func errorProblems(err error) []Violation {
	var de *DecodeError
	var verr *ValidationError
	var ferr *FormatError
	switch {
	case errors.As(err, &ferr):
		return []Violation{ferr.Violation}
	case errors.As(err, &de):
		return de.problems()
	case errors.As(err, &verr):
		return verr.Violations
	}
	return []Violation{{Message: strings.TrimPrefix(err.Error(), errPrefix), Code: CodeSyntax, Severity: SeverityError}}
}

// examined is everything read from one YAML document.
type examined struct {
	spec     *taskspecv1.TaskSpec // nil unless the spec could be read and is valid
	problems []Violation
	err      error // a *DecodeError, a *ValidationError, or nil
}

// examine reads data and lists its problems. A reader that wants the spec
// alone (forSpec) skips the warnings of a document that has no other
// problem: they never refuse it, and ParseYAML only reports them inside an
// error, next to the problems that caused it.
func examine(data []byte, forSpec bool) examined {
	m, w, err := decode(data)
	if err != nil {
		forEditorsError(w.text, err)
		return examined{problems: errorProblems(err), err: err}
	}
	vs := slices.Clone(w.problems)
	for i := range vs {
		if vs[i].Hint == "" {
			vs[i].Hint = promptHint(vs[i], data)
			vs[i].Fix = promptFix(vs[i], w.text)
		}
	}
	decodeFailed := len(vs) > 0
	hidden := hiddenBy(w.problems)
	broken := check(checkedFromMirror(m))
	var rules []Violation
	for _, v := range broken {
		if !under(v.FieldPath, hidden) {
			rules = append(rules, w.placed(v))
		}
	}
	// Among the rules, document order; Go's order among rules at one place.
	sortByPosition(rules)
	vs = append(vs, rules...)
	var spec *taskspecv1.TaskSpec
	if len(vs) == 0 {
		s, cerr := fromMirror(m)
		if cerr != nil {
			return examined{problems: errorProblems(cerr), err: cerr}
		}
		vs = portability(s)
		if len(vs) == 0 {
			spec = s
		}
	}
	failed := len(vs) > 0
	if forSpec && !failed {
		return examined{spec: spec}
	}
	vs = append(vs, warnings(nil, m, w)...)
	if len(vs) == 0 {
		vs = nil
	}
	forEditors(w.text, vs)
	out := examined{spec: spec, problems: vs}
	switch {
	case decodeFailed:
		out.err = newDecodeError(vs, nil)
		if !w.errPlain && !w.goRejects && w.err != nil {
			out.err.(*DecodeError).Err = w.err
		}
	case failed:
		out.err = &ValidationError{Violations: firstBrokenFirst(vs, broken)}
	}
	return out
}

// forEditors moves the problems vs of text to the positions editors give
// them: the readers end lines at NEL, LS and PS too, editors, GitHub and
// LSP clients only at "\n", "\r\n" and "\r" (see docs/problems.md).
func forEditors(text *source.Text, vs []Violation) {
	for i := range vs {
		vs[i].Line, vs[i].Column = text.EditorPosition(vs[i].Line, vs[i].Column)
	}
}

// forEditorsError is forEditors for the problems err holds, when it is a
// *DecodeError or a *ValidationError of this package.
func forEditorsError(text *source.Text, err error) {
	var de *DecodeError
	var verr *ValidationError
	switch {
	case errors.As(err, &de):
		forEditors(text, de.Violations)
		de.Line, de.Column = text.EditorPosition(de.Line, de.Column)
	case errors.As(err, &verr):
		forEditors(text, verr.Violations)
	}
}

// firstBrokenFirst is vs for the error ParseYAML returns: Validate's first
// broken rule, in the Go package's order, moved in front, since its
// message is the error's; Check keeps vs in document order.
func firstBrokenFirst(vs, broken []Violation) []Violation {
	if len(broken) == 0 {
		return vs
	}
	for i, v := range vs {
		if v.FieldPath == broken[0].FieldPath && v.Message == broken[0].Message {
			if i == 0 {
				return vs
			}
			out := make([]Violation, 0, len(vs))
			out = append(out, v)
			out = append(out, vs[:i]...)
			return append(out, vs[i+1:]...)
		}
	}
	return vs
}

// hiddenBy returns the fields whose rules the decode problems hide: a
// value that could not be read hides the rules under it; an unknown key
// whose hint names a field hides that field's rules, and those of every
// field under it (see docs/problems.md).
func hiddenBy(problems []Violation) []string {
	var hidden []string
	for _, v := range problems {
		switch {
		case v.Code == CodeUnknownKey:
			if meant := meantField(v); meant != "" {
				hidden = append(hidden, meant)
			}
		case v.Code != CodeDuplicateKey && v.FieldPath != "":
			hidden = append(hidden, v.FieldPath)
		case v.Code == CodeUnsupported && strings.HasPrefix(v.Message, forms.ReasonUnsupportedQuestionInFlow.Pieces()[0]):
			// The top mapping, in flow style, could not be read: no rule.
			hidden = append(hidden, "")
		}
	}
	return hidden
}

// under reports whether path is one of roots or a field under one.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if r == "" || path == r || strings.HasPrefix(path, r+".") || strings.HasPrefix(path, r+"[") {
			return true
		}
	}
	return false
}

// meantField is the path of the field an unknown key's hint names
// ("generated_from" for generated_frm), or "".
func meantField(v Violation) string {
	guess, ok := strings.CutPrefix(v.Hint, "did you mean ")
	if !ok {
		return ""
	}
	name, err := strconv.Unquote(strings.TrimSuffix(guess, "?"))
	if err != nil {
		return ""
	}
	parent := ""
	if i := strings.LastIndexByte(v.FieldPath, '.'); i >= 0 {
		parent = v.FieldPath[:i]
	}
	// A JSON key's hint names the field by its JSON name; the path is the
	// proto name's.
	md := (&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor()
	for _, part := range strings.Split(parent, ".") {
		if part == "" || md == nil {
			break
		}
		if i := strings.IndexByte(part, '['); i >= 0 {
			part = part[:i]
		}
		fd := md.Fields().ByName(protoreflect.Name(part))
		if fd == nil {
			md = nil
			break
		}
		md = fd.Message()
	}
	if md != nil {
		if fd := md.Fields().ByJSONName(name); fd != nil {
			name = string(fd.Name())
		}
	}
	return join(parent, name)
}

// placed gives a broken rule its position: its value's, or for a field
// the document leaves out, that of the nearest enclosing mapping that is
// there, with a hint that names the missing key when the catalogue has
// one for the rule's code. A misspelt enum gets its did-you-mean.
func (w *reading) placed(v Violation) Violation {
	if p, ok := w.pos.Get(v.FieldPath); ok {
		v.Line, v.Column = p.Line, p.Column
		if strings.HasPrefix(v.Message, "invalid ") {
			text := w.enumText(v.FieldPath)
			if guess := enumGuess(v.FieldPath, text); guess != "" {
				v.Hint = "did you mean " + strconv.Quote(guess) + "?"
				v.Fix = replaceAt(w.text, p.Line, p.Column, text, guess)
			} else {
				v.Hint = ""
			}
		}
		return v
	}
	parent, name := "", v.FieldPath
	if i := strings.LastIndexByte(v.FieldPath, '.'); i >= 0 {
		parent, name = v.FieldPath[:i], v.FieldPath[i+1:]
	}
	for parent != "" {
		if _, ok := w.pos.Get(parent); ok {
			break
		}
		name = parent
		parent = ""
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			parent, name = name[:i], name[i+1:]
		}
	}
	p, ok := w.pos.Get(parent)
	if !ok {
		p = walk.Position{Line: 1, Column: 1}
	}
	v.Line, v.Column = p.Line, p.Column
	// NOT_BLANK's and NOT_EMPTY's messages ("task_id is required") say
	// the key is missing already.
	if v.Hint == "" && v.Code != CodeNotBlank && v.Code != CodeNotEmpty {
		v.Hint = "key " + strconv.Quote(name) + " is missing"
		if parent != "" {
			v.Hint += " in " + parent
		}
	}
	return v
}

// enumText is the text an enum field holds in the document.
func (w *reading) enumText(path string) string {
	return w.values.Get(path)
}

// enumGuess is the value a misspelt enum value most likely meant, or "".
func enumGuess(path, text string) string {
	for _, t := range enumTables {
		if t.fieldPath() != path {
			continue
		}
		if guess := wording.Guess(text, t.texts()); guess != "" {
			return guess
		}
	}
	return ""
}

// warnings returns the warnings of a spec read from a document (w, with
// the mirror m it decoded) or of spec: TS301 for each artifact path that
// leaves the workspace, TS303 for each verification command the prompt
// holds, then TS302 for the raw line breaks of YAML 1.1 and TS305 for the
// raw byte order marks, in document order.
func warnings(spec *taskspecv1.TaskSpec, m *eval.TaskSpec, w *reading) []Violation {
	var out []Violation
	var paths []string
	if w != nil {
		paths = w.artifactPaths
	} else {
		for _, a := range spec.GetSolutionArtifacts() {
			paths = append(paths, a.GetPath())
		}
	}
	for i, p := range paths {
		reason := ArtifactPathProblem(p)
		if reason == "" {
			continue
		}
		v := Violation{FieldPath: fmt.Sprintf("solution_artifacts[%d].path", i),
			Message: forms.MsgArtifactPathNotAllowed.Render(forms.Args{"value": strconv.Quote(p), "reason": reason}),
			Code:    CodeArtifactPath, Severity: SeverityWarning}
		if w != nil {
			if p, ok := w.pos.Get(v.FieldPath); ok {
				v.Line, v.Column = p.Line, p.Column
			}
		}
		out = append(out, v)
	}
	prompt, cmds := spec.GetPrompt(), [][]string{spec.GetVerification().GetBuildCmd(), spec.GetVerification().GetTestCmd()}
	if m != nil {
		prompt, cmds = m.Prompt, [][]string{m.Verification.BuildCmd, m.Verification.TestCmd}
	}
	for i, cmd := range cmds {
		if text := strings.Join(cmd, " "); words(cmd) >= 2 && strings.Contains(prompt, text) {
			v := Violation{FieldPath: "prompt", Code: CodePromptHasCommand, Severity: SeverityWarning,
				Message: forms.MsgPromptHasCommandHolds.Render(forms.Args{
					"path": "verification." + []string{"build_cmd", "test_cmd"}[i], "value": strconv.Quote(text)}),
				Hint: forms.HintPromptHasCommandSayWhat.Render(nil)}
			if w != nil {
				if p, ok := w.pos.Get("prompt"); ok {
					v.Line, v.Column = p.Line, p.Column
				}
			}
			out = append(out, v)
		}
	}
	if w != nil {
		out = append(out, w.lineBreaks()...)
		out = append(out, w.byteOrderMarks()...)
		if v, ok := w.promptComment(prompt); ok {
			out = append(out, v)
		}
	}
	sortByPosition(out)
	return out
}

// words counts the arguments of cmd that hold more than blanks: a command
// of two words or more is looked for in the prompt (TS303).
func words(cmd []string) int {
	n := 0
	for _, arg := range cmd {
		if strings.Trim(arg, " \t\r\n") != "" {
			n++
		}
	}
	return n
}

// promptComment returns the TS304 warning of a prompt written plain whose
// line goes on after " #": YAML ends a plain value at a blank followed by
// '#' and reads the rest of the line as a comment, so "Fix issue #12" is
// the prompt "Fix issue". A comment meant as one stands apart, with two
// spaces before it by convention. The value's end is found by matching its
// bytes, folding aside, against the text from where it starts.
func (w *reading) promptComment(value string) (Violation, bool) {
	if !mayEndBeforeComment(w.text.Bytes(), value) {
		return Violation{}, false
	}
	return w.promptBeforeComment(value)
}

// mayEndBeforeComment reports whether the plain value might end before
// " #" in data, by tests that need no line index: no plain value ends in a
// blank or a line break, and the value's last word, up to a blank, a line
// break or a character, is written as it reads, so " #" must follow it
// somewhere in data. They rule out most prompts, such as every literal
// block that ends its last line.
func mayEndBeforeComment(data []byte, value string) bool {
	if value == "" || yamlscan.IsBlankOrBreak(value[len(value)-1]) {
		return false
	}
	word := len(value)
	for word > 0 && value[word-1] < utf8.RuneSelf && !yamlscan.IsBlankOrBreak(value[word-1]) {
		word--
	}
	return bytes.Contains(data, []byte(value[word:]+" #"))
}

// promptBeforeComment is promptComment past its cheap tests.
func (w *reading) promptBeforeComment(value string) (Violation, bool) {
	data := w.text.Bytes()
	p, ok := w.pos.Get("prompt")
	if !ok {
		return Violation{}, false
	}
	at := w.text.Offset(p.Line, p.Column)
	if at < 0 || at >= len(data) || strings.IndexByte(`"'|>!&*`, data[at]) >= 0 {
		return Violation{}, false // not a plain scalar as written
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; yamlscan.IsBlankOrBreak(c) {
			continue
		}
		for at < len(data) {
			if yamlscan.IsBlank(data[at]) {
				at++
			} else if n := yamlscan.LineBreakAt(data, at); n > 0 {
				at += n
			} else {
				break
			}
		}
		if at >= len(data) || data[at] != value[i] {
			return Violation{}, false
		}
		at++
	}
	if !bytes.HasPrefix(data[at:], []byte(" #")) {
		return Violation{}, false
	}
	line, column := w.text.LineColumn(at + 1)
	return Violation{FieldPath: "prompt", Message: pathForm(forms.MsgCommentInValueEnds, forms.MsgCommentInValueEnds, "prompt", nil),
		Line: line, Column: column, Code: CodeCommentInValue, Hint: forms.HintCommentInValueQuote.Render(nil),
		Severity: SeverityWarning, Fix: w.wholeLineQuoted(p, line)}, true
}

// promptOnItsLine is what stands before a prompt written on its key's line, in
// block style.
var promptOnItsLine = regexp.MustCompile(`^ *prompt: +$`)

// wholeLineQuoted is TS304's fix: the prompt at p and the rest of its
// line, comment and all, double-quoted. Only for a prompt that starts on
// its key's line, in block style, and ends on it (hashLine), as the
// catalogue's fix does (prompt: "Fix issue #12 ..."). The Python
// library's _whole_line_quoted is the same.
func (w *reading) wholeLineQuoted(p walk.Position, hashLine int) *Fix {
	data := w.text.Bytes()
	start := w.text.Offset(p.Line, p.Column)
	lineStart := w.text.LineStarts()[p.Line-1]
	if hashLine != p.Line || start < lineStart || !promptOnItsLine.Match(data[lineStart:start]) {
		return nil
	}
	whole := yamlscan.TrimLineBreak(w.text.Line(p.Line))[start-lineStart:]
	old := strings.TrimRight(string(whole), " \t")
	return replaceAt(w.text, p.Line, p.Column, old, strconv.Quote(old))
}

// A rawBreak is a character YAML 1.1 readers read as a line break, with
// its name, its short escape and its escape by number.
type rawBreak struct{ text, name, escape, unicode string }

// rawBreaks are the characters YAML 1.1 readers read as line breaks and
// YAML 1.2 readers keep, with their names and escapes.
var rawBreaks = [...]rawBreak{
	{"\u0085", forms.WordNel.Render(nil), `"\N"`, `\u0085`},
	{"\u2028", forms.WordLineSeparator.Render(nil), `"\L"`, `\u2028`},
	{"\u2029", forms.WordParagraphSeparator.Render(nil), `"\P"`, `\u2029`},
}

// lineBreaks returns a TS302 warning for each raw NEL, LS and PS in the
// text, at the character: the field is the deepest one whose value starts
// before it.
func (w *reading) lineBreaks() []Violation {
	data := w.text.Bytes()
	// The next place of each character, found again only past the one
	// taken: one look at the text for each, however many it holds.
	var next [len(rawBreaks)]int
	for i, b := range rawBreaks {
		next[i] = bytes.Index(data, []byte(b.text))
	}
	var out []Violation
	for {
		k := -1
		for i, at := range next {
			if at >= 0 && (k < 0 || at < next[k]) {
				k = i
			}
		}
		if k < 0 {
			return out
		}
		b, at := rawBreaks[k], next[k]
		if i := bytes.Index(data[at+len(b.text):], []byte(b.text)); i >= 0 {
			next[k] = at + len(b.text) + i
		} else {
			next[k] = -1
		}
		line, column := w.text.LineColumn(at)
		path := w.fieldBefore(line, column)
		msg := pathForm(forms.MsgYAMLLineBreakAtPath, forms.MsgYAMLLineBreakPlain, path, forms.Args{"what": b.name})
		out = append(out, Violation{FieldPath: path, Message: msg, Line: line, Column: column,
			Code: CodeYAMLLineBreak, Hint: forms.HintYAMLLineBreakEscape.Render(forms.Args{"value": b.escape}),
			Severity: SeverityWarning})
	}
}

// byteOrderMarks returns a TS305 warning for each raw byte order mark
// past the start of the text, at the character: decoding refused any that
// is not inside a value, so each is part of a value. The field is found as
// for TS302, from the fields sorted once, but a value may start with the
// mark: the deepest whose value starts at or before it.
func (w *reading) byteOrderMarks() []Violation {
	data := w.text.Bytes()
	start := 0
	if bytes.HasPrefix(data, []byte(byteOrderMark)) {
		start = len(byteOrderMark)
	}
	if !bytes.Contains(data[start:], []byte(byteOrderMark)) {
		return nil
	}
	type field struct {
		at    walk.Position
		depth int
		path  string
	}
	var fields []field
	w.pos.All(func(path string, p walk.Position) bool {
		if path != "" && !strings.HasSuffix(path, "]") {
			fields = append(fields, field{p, strings.Count(path, ".") + strings.Count(path, "["), path})
		}
		return true
	})
	before := func(a, b walk.Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column }
	// sort.Slice, not slices.SortFunc: a generic sort is compiled again
	// for each element type, which every program linking the library pays.
	sort.Slice(fields, func(i, j int) bool {
		a, b := fields[i], fields[j]
		switch {
		case before(a.at, b.at):
			return true
		case before(b.at, a.at):
			return false
		case a.depth != b.depth:
			return a.depth < b.depth
		}
		return a.path < b.path
	})
	var out []Violation
	last, line, column := -1, 0, 0
	for {
		i := bytes.Index(data[start:], []byte(byteOrderMark))
		if i < 0 {
			return out
		}
		at := start + i
		start = at + len(byteOrderMark)
		// Columns are counted from the last mark on its line, once.
		if l := sort.SearchInts(w.text.LineStarts(), at+1); last >= 0 && l == line {
			column += utf8.RuneCount(data[last:at])
		} else {
			line, column = w.text.LineColumn(at)
		}
		last = at
		mark := walk.Position{Line: line, Column: column}
		k := sort.Search(len(fields), func(k int) bool { return before(mark, fields[k].at) }) - 1
		path := ""
		if k >= 0 {
			path = fields[k].path
		}
		msg := pathForm(forms.MsgYAMLByteOrderMarkAtPath, forms.MsgYAMLByteOrderMarkPlain, path, nil)
		out = append(out, Violation{FieldPath: path, Message: msg, Line: line, Column: column,
			Code: CodeYAMLByteOrderMark, Hint: forms.HintYAMLByteOrderMarkEscape.Render(nil), Severity: SeverityWarning})
	}
}

// fieldBefore is the deepest field whose value starts before line and
// column: the one starting last, on a tie the deeper, then the greater
// path; "" for none. List items and map entries are not fields.
func (w *reading) fieldBefore(line, column int) string {
	best, bestAt, bestDepth := "", walk.Position{}, -1
	w.pos.All(func(path string, p walk.Position) bool {
		if path == "" || strings.HasSuffix(path, "]") || p.Line > line || p.Line == line && p.Column >= column {
			return true
		}
		depth := strings.Count(path, ".") + strings.Count(path, "[")
		if p.Line > bestAt.Line || p.Line == bestAt.Line && p.Column > bestAt.Column ||
			p == bestAt && (depth > bestDepth || depth == bestDepth && path > best) {
			best, bestAt, bestDepth = path, p, depth
		}
		return true
	})
	return best
}

// sortByPosition orders vs by line, then column, keeping the order of
// problems at one place. It uses sort.SliceStable rather than
// slices.SortStableFunc, whose copy for Violation every program linking the
// library would carry (the hello-world's size is held under a bound).
func sortByPosition(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool {
		if vs[i].Line != vs[j].Line {
			return vs[i].Line < vs[j].Line
		}
		return vs[i].Column < vs[j].Column
	})
}

// pathForm renders at, a form that starts "{path}: ", with path shown as
// withPath shows it; or plain, for the document as a whole (path "").
func pathForm(at, plain forms.Form, path string, args forms.Args) string {
	if path == "" {
		return plain.Render(args)
	}
	if utf8.RuneCountInString(path) > 2*wording.QuoteChars {
		path = wording.Clip(path)
	}
	with := forms.Args{"path": path}
	for k, v := range args {
		with[k] = v
	}
	return at.Render(with)
}

// withPath is a message at path: "path: reason", or the reason alone for
// the document as a whole. A path a long key makes long is cut in the
// message, as the Python library cuts it; the problem keeps it whole.
func withPath(path, reason string) string {
	if path == "" {
		return reason
	}
	if utf8.RuneCountInString(path) > 2*wording.QuoteChars {
		path = wording.Clip(path)
	}
	return path + ": " + reason
}

// errEmptyDocument is a text with no document in it.
var errEmptyDocument = &StrictError{Reason: forms.MsgWrongTypeEmptyDocument.Render(nil)}

// alone turns the refusal of a document that cannot be read at all into
// its one problem. code is the code of the refusal when it is a
// StrictError, given where the refusal was found.
func alone(err error, code Code, data []byte) *DecodeError {
	src := source.New(data)
	v := Violation{Severity: SeverityError}
	var strict *StrictError
	var verr *ValidationError
	switch {
	case errors.As(err, &verr):
		return newDecodeError(verr.Violations, err)
	case errors.As(err, &strict):
		v.FieldPath, v.Line, v.Column = strict.FieldPath, strict.Line, strict.Column
		if rest, ok := strings.CutPrefix(strict.Reason, "invalid YAML: "); ok {
			v.Code, v.Message = syntaxProblem(rest)
			if v.Code == CodeControlCharacter {
				v.Message = strict.Reason
			} else if rv, ok := readerSyntax(data); ok {
				// libyaml's problem at libyaml's mark, as the Python
				// library reports it.
				v = rv
			}
		} else {
			v.Code, v.Message = code, withPath(strict.FieldPath, strict.Reason)
		}
	case errors.Is(err, io.EOF):
		v.Code, v.Message = CodeWrongType, errEmptyDocument.Reason
	case !utf8.Valid(data):
		s := notUTF8(data)
		v.Line, v.Column, v.Code, v.Message = s.Line, s.Column, CodeEncoding, s.Reason
	default:
		if rv, ok := readerSyntax(data); ok {
			// libyaml's problem at libyaml's mark, as the Python library
			// reports it.
			v = rv
			break
		}
		// The reader reads the text, yaml.v3 does not, and the library
		// names no difference there.
		v.Code, v.Message = syntaxProblem(strings.TrimPrefix(err.Error(), decodePrefix))
	}
	if v.Code == CodeControlCharacter {
		// At the character, where libyaml's reader stops.
		if at := controlAt(data); at >= 0 {
			v.Line, v.Column = src.LineColumn(at)
		}
	}
	v.Hint = promptHint(v, data)
	v.Fix = promptFix(v, src)
	if p, ok := rawBreakProblem(v, src); ok {
		v = p
	}
	return newDecodeError([]Violation{v}, err)
}

// rawBreakCodes are the syntax problems a raw NEL, LS or PS can cause, by
// ending a line where the text after it cannot stand.
var rawBreakCodes = map[Code]bool{
	CodeSyntax: true, CodeTabIndent: true, CodeCannotStartValue: true, CodeUnclosedQuote: true,
	CodeUnclosedFlow: true, CodeMappingValue: true, CodeIndentation: true, CodeBadEscape: true,
	CodeBlockScalarHeader: true, CodeDirective: true, CodeAnchorAliasTag: true,
}

// rawBreakProblem is TS009 for the syntax problem v of text that a raw NEL,
// LS or PS caused, at the character: the one that ends line v.Line-1 or
// v.Line-2 as YAML counts lines (it started the line the parser could not
// read, which the parser names, or the line after it, where it found that
// a key has no ':'), else the one that ends line v.Line (the parser names
// the line the character ends). ok is false when none of them ends so.
func rawBreakProblem(v Violation, text *source.Text) (Violation, bool) {
	if !rawBreakCodes[v.Code] || v.Line < 1 {
		return Violation{}, false
	}
	for _, at := range [...]int{v.Line - 1, v.Line - 2, v.Line} {
		line := text.Line(at)
		for _, b := range rawBreaks {
			if content, ok := bytes.CutSuffix(line, []byte(b.text)); ok {
				kind := catalogue[CodeRawLineBreak]
				return Violation{Line: at, Column: utf8.RuneCount(content) + 1, Code: CodeRawLineBreak,
					Message:  strings.ReplaceAll(kind.Messages[0], "{what}", b.name),
					Hint:     strings.ReplaceAll(kind.Hints[0], "{value}", b.unicode),
					Severity: SeverityError}, true
			}
		}
	}
	return Violation{}, false
}

// syntaxProblem maps a problem text to its code and the catalogue's
// message: the stricter rules' refusals, in the catalogue's words, and
// yaml.v3's bound on aliasing; anything else is TS005.
func syntaxProblem(text string) (Code, string) {
	for code := range syntaxCodes {
		for _, msg := range catalogue[code].Messages {
			if msg == "invalid YAML: "+text {
				return code, msg
			}
		}
	}
	switch {
	case strings.Contains(text, "control characters are not allowed"):
		// The character is named by the stricter rules, which meet it first.
		return CodeControlCharacter, "invalid YAML: control characters are not allowed"
	case strings.Contains(text, "excessive aliasing"):
		return CodeLimit, fmt.Sprintf("document expands to more than %d nodes", MaxNodes)
	}
	return CodeSyntax, catalogue[CodeSyntax].Messages[0]
}

// promptStart are the characters that cannot start a plain value, or
// that start one that means something else: a prompt or command that
// starts with one must be quoted or written as a block scalar.
const promptStart = "`@%*&!|>[{\"'"

var promptKey = regexp.MustCompile(`(?s)^[A-Za-z0-9_]+: +([^ ].*)$`)

// promptHint is the hint that names the fix for the mistakes people make
// in prompts and commands, computed from the text of the problem's line
// alone, as docs/problems.md describes; "" when there is none.
func promptHint(v Violation, data []byte) string {
	switch {
	case v.Code == CodeTabIndent, v.Code == CodeUnclosedQuote, v.Code == CodeBadEscape:
		// Their own hint names the fix whatever the line holds: a quote
		// or a backslash inside the value, not how it starts.
		return fixedHint(v.Code)
	case v.Code >= CodeCannotStartValue && v.Code <= CodeAnchorAliasTag:
	case v.Code == CodeWrongType && (strings.HasSuffix(v.Message, "expected a string, got a sequence") ||
		strings.HasSuffix(v.Message, "expected a string, got a mapping")):
	case v.Code == CodeUnsupported && stringTagRefusal(v.Message):
	default:
		return ""
	}
	line := string(yamlscan.TrimLineBreak(source.New(data).Line(v.Line)))
	rest := strings.TrimLeft(line, " ")
	for strings.HasPrefix(rest, "- ") {
		rest = rest[2:]
	}
	if m := promptKey.FindStringSubmatch(rest); m != nil {
		value := m[1]
		first, _ := utf8.DecodeRuneInString(value)
		switch {
		case strings.ContainsRune(promptStart, first), strings.HasPrefix(value, "- "):
			return forms.HintMappingValueQuoteValue.Render(forms.Args{"value": strconv.Quote(string(first))})
		case v.Code == CodeMappingValue && strings.Contains(value, ": "):
			return catalogue[CodeMappingValue].Hints[0]
		case v.Code == CodeMappingValue:
			return catalogue[CodeMappingValue].Hints[1]
		}
	}
	if v.Code >= CodeCannotStartValue && v.Code <= CodeAnchorAliasTag {
		return fixedHint(v.Code)
	}
	return ""
}

// stringTagRefusal is whether msg refuses a tag on a string field (TS004).
func stringTagRefusal(msg string) bool {
	p := forms.ReasonUnsupportedStringTag.Pieces()
	return strings.Contains(msg, p[0]) && strings.Contains(msg, p[len(p)-1])
}

// controlAt returns the offset of the first character no YAML reader
// takes (see yamlscan.FirstControl), or -1.
func controlAt(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F ||
			r >= 0x80 && r < 0xA0 && r != 0x85 && size > 1 || r == 0xFFFE || r == 0xFFFF {
			return i
		}
		i += size
	}
	return -1
}
