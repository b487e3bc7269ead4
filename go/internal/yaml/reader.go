package yaml

import (
	"fmt"
	"unicode/utf8"
)

// A Mark is a position in the text, counted as libyaml counts it: Line and
// Column from 0, Column in characters, Index in characters from the start of
// the text after any byte order mark (a CR LF pair counts two), and NEL, LS
// and PS end a line as LF and CR do. Offset is the byte offset of the same
// position in the text as given, byte order mark included, so a caller can
// convert to any editor's positions.
type Mark struct {
	Index, Line, Column, Offset int
}

// String is the mark as libyaml's messages give it, 1-based.
func (m Mark) String() string {
	return fmt.Sprintf("line %d, column %d", m.Line+1, m.Column+1)
}

// ErrorKind says which stage refused the text, as libyaml's error kinds do.
type ErrorKind int

// The stages that can refuse a text.
const (
	ReaderError     ErrorKind = iota + 1 // the bytes are not acceptable UTF-8 text
	ScannerError                         // a token could not be read
	ParserError                          // the tokens are not in a YAML order
	ComposerError                        // an alias names no anchor
	BudgetError                          // the document is past a node or depth budget
	DifferenceError                      // yaml.v3 reads the text otherwise (Options.YAMLv3)
)

var kindNames = [...]string{"", "reader", "scanner", "parser", "composer", "budget", "difference"}

func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// An Error is a refusal of the text, with libyaml's fields: the problem and
// where it was found, and, when the routine that refused names one, the
// construct being read and where that started. A reader error has no context;
// its Value is the refused byte or character, as libyaml's problem_value.
type Error struct {
	Kind        ErrorKind
	Problem     string
	ProblemMark Mark
	Context     string // empty when there is none
	ContextMark Mark
	Value       int // the refused character or octet, for a ReaderError
	// Difference names, for a DifferenceError, the place yaml.v3 reads
	// otherwise (see the package documentation); Problem and Context are
	// then yaml.v3's.
	Difference string
}

// Error formats the refusal as PyYAML prints a MarkedYAMLError (1-based).
func (e *Error) Error() string {
	if e.Kind == ReaderError {
		return fmt.Sprintf("unacceptable character #x%04x: %s at byte %d", e.Value, e.Problem, e.ProblemMark.Offset)
	}
	s := ""
	if e.Context != "" {
		s = e.Context + " at " + e.ContextMark.String() + ": "
	}
	return s + e.Problem + " at " + e.ProblemMark.String()
}

// checkInput is the part of yaml_parser_update_buffer (reader.c) that
// decodes UTF-8 and refuses what libyaml refuses: a malformed or overlong
// sequence, a surrogate, and a character outside the printable set (a C0 or
// C1 control other than TAB, LF, CR and NEL, DEL, U+FFFE and U+FFFF). libyaml
// finds these lazily as its buffer fills, ahead of the scanner; here the
// whole text is checked first, so a refused text never gives a partial
// tree. It returns the offset where the characters start (past a UTF-8 byte
// order mark, which the reader drops).
//
// This is the one place the reader departs from libyaml on purpose
// ("reader-chunks"): libyaml decodes its input 16 KiB at a time as the
// scanner needs it, so in a longer text a syntax error before the chunk
// that holds a refused character is reported instead ("]\n", 20,000 'a',
// then U+0001: a parser error in libyaml, the control character here).
// Within the first 16 KiB both report the character.
//
// Only UTF-8 is read: the library refuses the other encodings libyaml
// detects (UTF-16 by its byte order mark) before reading (difference
// "utf16": yaml.v3 and libyaml read UTF-16; here it is refused as UTF-8,
// "invalid leading UTF-8 octet").
func checkInput(data []byte) (int, *Error) {
	start := 0
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		start = 3
	}
	index := 0
	for i := start; i < len(data); index++ {
		c := data[i]
		if c < 0x80 {
			if !(c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E)) {
				return start, readerError(data, start, i, index, "control characters are not allowed", int(c), 0)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && w <= 1 {
			problem, k := badUTF8(data[i:])
			return start, readerError(data, start, i, index, problem, int(data[i+k]), k)
		}
		if !(r == 0x85 || (r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000) {
			return start, readerError(data, start, i, index, "control characters are not allowed", int(r), 0)
		}
		i += w
	}
	return start, nil
}

// badUTF8 names, in reader.c's words, what is wrong with the UTF-8 sequence
// at the start of b, which Go's decoder refused, and the offset in b of the
// octet reader.c reports (a bad trailing octet; else the leading one).
func badUTF8(b []byte) (string, int) {
	c := b[0]
	width := 0
	switch {
	case c&0xE0 == 0xC0:
		width = 2
	case c&0xF0 == 0xE0:
		width = 3
	case c&0xF8 == 0xF0:
		width = 4
	default:
		return "invalid leading UTF-8 octet", 0
	}
	if len(b) < width {
		return "incomplete UTF-8 octet sequence", 0
	}
	value := rune(c) & (0xFF >> (width + 1))
	for k := 1; k < width; k++ {
		if b[k]&0xC0 != 0x80 {
			return "invalid trailing UTF-8 octet", k
		}
		value = value<<6 | rune(b[k]&0x3F)
	}
	if (width == 2 && value < 0x80) || (width == 3 && value < 0x800) || (width == 4 && value < 0x10000) {
		return "invalid length of a UTF-8 sequence", 0
	}
	return "invalid Unicode character", 0
}

// readerError is yaml_parser_set_reader_error: the mark is where the
// refused character starts, and its Offset that of the refused octet,
// k bytes into it (libyaml's problem_offset).
func readerError(data []byte, start, at, index int, problem string, value, k int) *Error {
	m := Mark{Index: index, Offset: at + k}
	for i := start; i < at; {
		c := data[i]
		w := width(c)
		switch {
		case c == '\r' && i+1 < at && data[i+1] == '\n':
			w = 2
			m.Line++
			m.Column = 0
		case isBreakAt(data, i):
			m.Line++
			m.Column = 0
		default:
			m.Column++
		}
		i += w
	}
	return &Error{Kind: ReaderError, Problem: problem, ProblemMark: m, Value: value}
}

// width is the length of the UTF-8 sequence that starts with c (WIDTH).
func width(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// isBreakAt is IS_BREAK_AT: CR, LF, NEL, LS or PS at data[i].
func isBreakAt(b []byte, i int) bool {
	if i >= len(b) {
		return false
	}
	switch b[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return i+1 < len(b) && b[i+1] == 0x85
	case 0xE2:
		return i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9)
	}
	return false
}
