// Package source owns the text of a YAML document as the readers see it:
// its bytes, where each of its lines starts, and the conversions between a
// byte offset and the 1-based line and column that yaml.v3 gives a node
// and a problem gives its reader. Lines break where YAML breaks them (at
// "\n", "\r", "\r\n", NEL, LS and PS) and columns count characters, not
// bytes, as yaml.v3 counts them; a leading byte order mark is no column.
//
// A problem's position is not YAML's, though: editors, GitHub and the
// Language Server Protocol end a line only at "\n", "\r\n" and "\r".
// EditorPosition converts a position the readers give into theirs, for
// every position a problem leaves the package with.
//
// New is its one entry point: a Text counts its lines once, on first use,
// and goes on from the last position it converted, so that the schema
// walk, which asks for its nodes in document order, reads a long line of
// many nodes once rather than once a node.
package source

import (
	"bytes"
	"slices"
	"sort"
	"unicode/utf8"
)

// byteOrderMark is UTF-8's byte order mark.
const byteOrderMark = "\xef\xbb\xbf"

// A Text is a document's bytes with their line index. Its methods do not
// change the bytes, and the caller must not either.
type Text struct {
	data  []byte
	lines []int // byte offset of each line start, computed on first use
	// editorLines is the byte offset of each line start as editors count
	// lines, computed on first use by a text with a NEL, LS or PS.
	editorLines []int
	yamlOnly    int8 // 0: not looked for; 1: no NEL, LS or PS; 2: one at least
	// The last position Offset converted, to go on from.
	lastLine, lastColumn, lastAt int
}

// New is the Text of data.
func New(data []byte) *Text { return &Text{data: data} }

// Bytes is the text's bytes.
func (t *Text) Bytes() []byte { return t.data }

// LineStarts returns the byte offset of each line's start, computing them
// on first use. The first line starts after a leading byte order mark.
func (t *Text) LineStarts() []int {
	if t.lines == nil {
		data := t.data
		start := 0
		if bytes.HasPrefix(data, []byte(byteOrderMark)) {
			start = 3 // yaml.v3's marks do not count a leading byte order mark
		}
		t.lines = append(t.lines, start)
		if !hasRareBreak(data[start:]) {
			// Only "\n" breaks lines: found by IndexByte, which is much
			// faster than looking at each byte below.
			t.lines = slices.Grow(t.lines, bytes.Count(data[start:], []byte("\n")))
			for i := start; ; {
				j := bytes.IndexByte(data[i:], '\n')
				if j < 0 {
					return t.lines
				}
				i += j + 1
				t.lines = append(t.lines, i)
			}
		}
		for i := start; i < len(data); i++ {
			switch c := data[i]; {
			case c == '\n':
				t.lines = append(t.lines, i+1)
			case c == '\r':
				if i+1 < len(data) && data[i+1] == '\n' {
					i++
				}
				t.lines = append(t.lines, i+1)
			case c == 0xC2 && i+1 < len(data) && data[i+1] == 0x85,
				c == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9):
				_, size := utf8.DecodeRune(data[i:])
				i += size - 1
				t.lines = append(t.lines, i+1)
			}
		}
	}
	return t.lines
}

// hasRareBreak reports whether data holds a line break other than "\n":
// "\r", NEL, LS or PS.
func hasRareBreak(data []byte) bool {
	return bytes.IndexByte(data, '\r') >= 0 || bytes.Contains(data, []byte("\u0085")) ||
		bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029"))
}

// Offset converts a 1-based line and column (counted in characters, as
// yaml.v3 counts them) to a byte offset in the text, or -1 for a line the
// text does not have.
func (t *Text) Offset(line, column int) int {
	t.LineStarts()
	if line < 1 || line > len(t.lines) {
		return -1
	}
	at, c := t.lines[line-1], 1
	if t.lastLine == line && t.lastColumn <= column {
		// Nodes are asked for in document order: go on from the last one,
		// so that a long line of many nodes is walked once, not once each.
		at, c = t.lastAt, t.lastColumn
	}
	for ; c < column && at < len(t.data); c++ {
		_, size := utf8.DecodeRune(t.data[at:])
		at += size
	}
	t.lastLine, t.lastColumn, t.lastAt = line, column, at
	return at
}

// LineColumn converts a byte offset in the text to its 1-based line and
// column.
func (t *Text) LineColumn(at int) (int, int) {
	lines := t.LineStarts()
	line := sort.SearchInts(lines, at+1) // lines[line-1] <= at < lines[line]
	return line, utf8.RuneCount(t.data[lines[line-1]:at]) + 1
}

// Line is line n (1-based) of the text with its line break, or nil for a
// line the text does not have.
func (t *Text) Line(n int) []byte {
	starts := t.LineStarts()
	if n < 1 || n > len(starts) {
		return nil
	}
	if n < len(starts) {
		return t.data[starts[n-1]:starts[n]]
	}
	return t.data[starts[n-1]:]
}

// hasYAMLOnlyBreak reports whether data holds a line break that YAML 1.1
// knows and editors do not: NEL, LS or PS.
func hasYAMLOnlyBreak(data []byte) bool {
	return bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) ||
		bytes.Contains(data, []byte("\u2029"))
}

// EditorPosition converts a 1-based line and column as yaml.v3 gives them
// (lines broken at NEL, LS and PS too, columns in characters) to the line
// and column an editor shows: lines broken at "\n", "\r\n" and "\r" only,
// the column counted in characters (code points) from that line's start.
// A line of 0 (no position) is kept, and so is a column of 0 (the line
// alone is known), as is a line the text does not have.
func (t *Text) EditorPosition(line, column int) (int, int) {
	if line < 1 || !t.hasYAMLOnlyBreak() {
		return line, column
	}
	starts := t.LineStarts()
	if line > len(starts) {
		return line, column
	}
	at := t.Offset(line, max(column, 1))
	if t.editorLines == nil {
		t.editorLines = []int{starts[0]}
		data := t.data
		for i := starts[0]; i < len(data); i++ {
			switch data[i] {
			case '\n':
				t.editorLines = append(t.editorLines, i+1)
			case '\r':
				if i+1 < len(data) && data[i+1] == '\n' {
					i++
				}
				t.editorLines = append(t.editorLines, i+1)
			}
		}
	}
	n := sort.SearchInts(t.editorLines, at+1) // editorLines[n-1] <= at < editorLines[n]
	if column == 0 {
		return n, 0
	}
	return n, utf8.RuneCount(t.data[t.editorLines[n-1]:at]) + 1
}

// hasYAMLOnlyBreak reports whether the text holds a NEL, LS or PS, looking
// once. A text that is not UTF-8 has none: no YAML reader reads it, and
// the position of its first bad byte counts lines at "\n" alone.
func (t *Text) hasYAMLOnlyBreak() bool {
	if t.yamlOnly == 0 {
		t.yamlOnly = 1
		if hasYAMLOnlyBreak(t.data) && utf8.Valid(t.data) {
			t.yamlOnly = 2
		}
	}
	return t.yamlOnly == 2
}
