package taskspec

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/yamlscan"
)

// A Fix is the one safe edit that fixes a problem, the contract's
// taskspec.v1.Fix: Text replaces the characters from StartLine and
// StartColumn up to, not including, EndLine and EndColumn. Positions are
// as editors count them: 1-based lines broken at "\n", "\r\n" and "\r"
// only, 1-based columns counted in characters (code points).
//
// A problem carries one where its hint's suggestion can be written in for
// certain: a misspelt key or enum value written plain, and a value that
// must be quoted. The Python library's Violation.fix is the same fix, as
// tests/contract/problems.json holds both to.
//
// In JSON it has the field names of the CLI's output (text, start_line,
// start_column, end_line, end_column).
type Fix struct {
	Text        string `json:"text"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
}

// proto returns the fix as a taskspec.v1.Fix, nil for none.
func (f *Fix) proto() *taskspecv1.Fix {
	if f == nil {
		return nil
	}
	return &taskspecv1.Fix{Text: f.Text, StartLine: clampInt32(f.StartLine), StartColumn: clampInt32(f.StartColumn),
		EndLine: clampInt32(f.EndLine), EndColumn: clampInt32(f.EndColumn)}
}

// fixFromProto returns the fix p carries, nil for none.
func fixFromProto(p *taskspecv1.Fix) *Fix {
	if p == nil {
		return nil
	}
	return &Fix{Text: p.GetText(), StartLine: int(p.GetStartLine()), StartColumn: int(p.GetStartColumn()),
		EndLine: int(p.GetEndLine()), EndColumn: int(p.GetEndColumn())}
}

// replaceAt returns the fix that writes replacement in place of old,
// written at the reader's line and column of text: nil unless the text
// holds old, on one line, just there, and replacement differs from it. A
// key or value written plain on one line is its text, so the fix replaces
// exactly it; a quoted one, an alias, a tag or a folded value is not, and
// gets none. The Python library's bridge._fixes.replace_at is the same.
func replaceAt(text *source.Text, line, column int, old, replacement string) *Fix {
	if old == "" || old == replacement || strings.ContainsAny(old, "\r\n\u0085\u2028\u2029") {
		return nil
	}
	at := text.Offset(line, column)
	if at < 0 || !bytes.HasPrefix(text.Bytes()[at:], []byte(old)) {
		return nil
	}
	l, c := text.EditorPosition(line, column)
	return &Fix{Text: replacement, StartLine: l, StartColumn: c, EndLine: l, EndColumn: c + utf8.RuneCountInString(old)}
}

// promptFix is the fix of the prompt-mistake hint promptHint gives v: the
// value written double-quoted, where the hint says it must be quoted. None
// when the value goes on past its line (the next line is indented deeper
// than its key), or holds " #", since then what the value is cannot be
// told from its line; nor under a key that names no field of one string,
// which a quote would not make right; nor for a value of the wrong type or
// tag that the problem's column does not place at the line's value. The
// Python library's prompt_fix is the same.
func promptFix(v Violation, text *source.Text) *Fix {
	if v.Hint == "" || v.Code == CodeTabIndent || v.Code == CodeUnclosedQuote || v.Code == CodeBadEscape {
		return nil
	}
	whole := string(yamlscan.TrimLineBreak(text.Line(v.Line)))
	rest := strings.TrimLeft(whole, " ")
	for strings.HasPrefix(rest, "- ") {
		rest = rest[2:]
	}
	m := promptKey.FindStringSubmatch(rest)
	if m == nil {
		return nil
	}
	if !stringFields()[rest[:strings.IndexByte(rest, ':')]] {
		return nil // quoting would make a string of a list, a mapping or a number
	}
	value := m[1]
	first, _ := utf8.DecodeRuneInString(value)
	quoted := strings.ContainsRune(promptStart, first) || strings.HasPrefix(value, "- ")
	if !quoted && (v.Code != CodeMappingValue || !strings.Contains(value, ": ")) {
		return nil
	}
	value = strings.TrimRight(value, " \t")
	if strings.Contains(value, " #") || strings.Contains(value, "\t#") {
		return nil
	}
	keyColumn := utf8.RuneCountInString(whole) - utf8.RuneCountInString(rest)
	after := string(yamlscan.TrimLineBreak(text.Line(v.Line + 1)))
	if strings.Trim(after, " \t") != "" && !strings.HasPrefix(strings.TrimLeft(after, " "), "#") &&
		len(after)-len(strings.TrimLeft(after, " ")) > keyColumn {
		return nil
	}
	column := utf8.RuneCountInString(whole) - utf8.RuneCountInString(m[1]) + 1
	if (v.Code == CodeWrongType || v.Code == CodeUnsupported) && v.Column != column {
		return nil // not the line's value that was read: a mapping in a list item
	}
	return replaceAt(text, v.Line, column, value, strconv.Quote(value))
}

// ApplyFixes returns the YAML document data with the fixes of problems
// written in, as Check gives them for data; problems without a fix are
// passed over. Fixes are applied from the last to the first, and one whose
// span overlaps another's already taken is left out, so the result is
// fixed as far as it safely can be: Check it again for what is left. The
// Python library's apply_fixes does the same.
//
// Positions count after a leading byte order mark, which is kept.
func ApplyFixes(data []byte, problems []Violation) []byte {
	if rest, ok := bytes.CutPrefix(data, []byte(byteOrderMark)); ok {
		return append([]byte(byteOrderMark), ApplyFixes(rest, problems)...)
	}
	lines := editorLines(data)
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, v := range problems {
		f := v.Fix
		if f == nil {
			continue
		}
		from, to := editorOffset(data, lines, f.StartLine, f.StartColumn), editorOffset(data, lines, f.EndLine, f.EndColumn)
		if from < 0 || to < from {
			continue
		}
		edits = append(edits, edit{from, to, f.Text})
	}
	// Last first, to choose which of overlapping fixes is written.
	slices.SortStableFunc(edits, func(a, b edit) int { return cmp.Compare(b.from, a.from) })
	var kept []edit
	limit := len(data) + 1
	for _, e := range edits {
		if e.to > limit || e.to == limit && e.from == limit {
			continue // overlaps a fix already taken
		}
		kept = append(kept, e)
		limit = e.from
	}
	// Then the text in one pass, first to last.
	out := make([]byte, 0, len(data))
	at := 0
	for i := len(kept) - 1; i >= 0; i-- {
		out = append(append(out, data[at:kept[i].from]...), kept[i].text...)
		at = kept[i].to
	}
	return append(out, data[at:]...)
}

// editorLines returns where each line of data starts, lines broken at
// "\n", "\r\n" and "\r" only, as editors count them.
func editorLines(data []byte) []int {
	starts := []int{0}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// editorOffset is the byte offset in data of an editor's 1-based line and
// column (starts from editorLines), or -1 when the text has no such
// place: a column may stand just past its line's last character, not in
// its line break.
func editorOffset(data []byte, starts []int, line, column int) int {
	if line < 1 || line > len(starts) || column < 1 {
		return -1
	}
	at := starts[line-1]
	for c := 1; c < column; c++ {
		if at >= len(data) || data[at] == '\n' || data[at] == '\r' {
			return -1
		}
		_, size := utf8.DecodeRune(data[at:])
		at += size
	}
	return at
}

// stringFields are the names of the schema's fields of one string: those a
// quote makes right.
var stringFields = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	seen := map[protoreflect.FullName]bool{}
	todo := []protoreflect.MessageDescriptor{(&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor()}
	for len(todo) > 0 {
		md := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[md.FullName()] {
			continue
		}
		seen[md.FullName()] = true
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			switch {
			case fd.Message() != nil:
				if !fd.IsMap() {
					todo = append(todo, fd.Message())
				}
			case fd.Kind() == protoreflect.StringKind && !fd.IsList():
				names[string(fd.Name())] = true
			}
		}
	}
	return names
})
