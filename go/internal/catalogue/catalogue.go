// Package catalogue renders a problem's words from the catalogue's forms.
//
// Every form a problem's message or hint takes, every reason a message is
// filled in with, and the few words messages share whatever their code
// (what a node is: "a sequence", `the string "x"`) are declared once, in
// proto/taskspec/v1/problems.proto, each with an id. The plugin
// (tools/protoc-gen-taskspec-go) writes a variable for each of them into
// forms_gen.go, with the parser-problem table that maps yaml.v3's problems
// to a code and a form; code renders a form with its arguments by
// [Form.Render]. The Python library renders the same forms from the same
// declarations (taskspec._words), so a rewording is one edit to the proto
// and `make generate`.
//
// It is a leaf: it imports nothing of the module.
package catalogue

import "strings"

// Kind is the list of the catalogue a form is declared in.
type Kind uint8

// The lists: a ProblemKind's message_forms, hint_forms and reasons, and
// ProblemTables' words.
const (
	Message Kind = iota + 1
	Hint
	Reason
	Word
)

// A Form is one form of the catalogue: the code it belongs to ("" for a
// word), its list, its id and its text. The text is shown as written, but
// for {name}: a name of lower case letters, digits and _ in braces stands
// for the argument of that name.
type Form struct {
	Code string // "TS001"
	Kind Kind
	ID   string // "did_you_mean"
	Text string // "did you mean {key}?"
}

// Args are a form's arguments, by name.
type Args map[string]string

// Render is f's text with each {name} replaced by args[name]. A name
// with no argument is left as written, and an argument the text does not
// name is ignored, so that a form reworded to drop or add an argument
// still renders; the tests of both libraries compare the words.
func (f Form) Render(args Args) string {
	text := f.Text
	i := strings.IndexByte(text, '{')
	if i < 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i >= 0 {
		b.WriteString(text[:i])
		text = text[i:]
		end := argumentEnd(text)
		if value, ok := args[text[1:max(end-1, 1)]]; end > 0 && ok {
			b.WriteString(value)
			text = text[end:]
		} else {
			b.WriteByte('{')
			text = text[1:]
		}
		i = strings.IndexByte(text, '{')
	}
	b.WriteString(text)
	return b.String()
}

// argumentEnd is the length of the {name} text starts with, or 0 when it
// starts with a brace that is itself.
func argumentEnd(text string) int {
	for i := 1; i < len(text); i++ {
		switch c := text[i]; {
		case c == '}' && i > 1:
			return i + 1
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		default:
			return 0
		}
	}
	return 0
}

// A ParserProblem is one row of the parser-problem table: a problem
// yaml.v3 reports, in its words, and the form it is reported with.
type ParserProblem struct {
	// Phrases, any of which the parser's text holds; none matches any.
	Phrases []string
	// The code's message form the problem is reported with.
	Form Form
}

// Match returns the form of the first row of table with a phrase text
// holds, and false when none has.
func Match(table []ParserProblem, text string) (Form, bool) {
	for _, row := range table {
		if len(row.Phrases) == 0 {
			return row.Form, true
		}
		for _, phrase := range row.Phrases {
			if strings.Contains(text, phrase) {
				return row.Form, true
			}
		}
	}
	return Form{}, false
}

// Pieces are the words of f between its arguments, in order, for code
// that reads a message.
func (f Form) Pieces() []string {
	var out []string
	text := f.Text
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			return append(out, text)
		}
		if end := argumentEnd(text[i:]); end > 0 {
			out = append(out, text[:i])
			text = text[i+end:]
			continue
		}
		j := strings.IndexByte(text[i+1:], '{')
		if j < 0 {
			return append(out, text)
		}
		// A brace that is itself: keep it in the piece.
		rest := Form{Text: text[i+1:]}.Pieces()
		rest[0] = text[:i+1] + rest[0]
		return append(out, rest...)
	}
}
