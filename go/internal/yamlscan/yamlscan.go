// Package yamlscan owns the lexical rules of YAML text that the checks
// made before and around yaml.v3 share: which bytes are blanks, line breaks
// and flow indicators, where a quoted scalar and a block scalar end, and
// which characters a YAML reader refuses as control characters. These are
// libyaml's rules (the Python library's parser), byte for byte, and the
// budgets' scan (internal/budget) and the YAML reading rules of the public
// package read text through them, so that the two never disagree on where
// a token ends.
//
// It has no entry point of its own: it is a leaf of small functions on
// bytes, each a rule of the YAML 1.1 scanner, with no state.
package yamlscan

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// IsBlank reports whether c is a blank: a space or a tab.
func IsBlank(c byte) bool { return c == ' ' || c == '\t' }

// IsBlankOrBreak reports whether c is a blank or an ASCII line break.
func IsBlankOrBreak(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// IsFlowIndicator reports whether c is a flow indicator: ',', '[', ']',
// '{' or '}'.
func IsFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// SkipQuoted returns the offset just past the quoted scalar starting at i,
// or len(data) when it is not closed.
func SkipQuoted(data []byte, i int) int {
	if end := CloseQuote(data, i); end >= 0 {
		return end
	}
	return len(data)
}

// CloseQuote returns the offset just past the quoted scalar starting at i,
// or -1 when it is not closed.
func CloseQuote(data []byte, i int) int {
	q := data[i]
	for i++; i < len(data); i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case data[i] == q:
			if q == '\'' && i+1 < len(data) && data[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// SkipBlockScalar returns the start of the first line after the block
// scalar whose indicator is at i, on a line indented by indent: its
// content is every following line that is blank or indented further.
func SkipBlockScalar(data []byte, i, indent int) int {
	next := func(at int) int {
		j := bytes.IndexByte(data[at:], '\n')
		if j < 0 {
			return len(data)
		}
		return at + j + 1
	}
	i = next(i)
	for i < len(data) {
		j := i
		for j < len(data) && data[j] == ' ' {
			j++
		}
		if j < len(data) && data[j] != '\n' && data[j] != '\r' && j-i <= indent {
			return i
		}
		i = next(i)
	}
	return i
}

// notPrintable holds the bytes that are not printable ASCII: the
// controls but tab and the line breaks, DEL, and the bytes of every other
// character.
var notPrintable = func() (t [256]bool) {
	for c := range t {
		t[c] = c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7F
	}
	return t
}()

// printableWord reports whether the eight bytes of w are all printable
// ASCII, 0x20 to 0x7E: none has its high bit set, none is below 0x20 and
// none is DEL. (The tests are the usual ones for a byte in a word: a byte
// below n, for n up to 0x80, borrows into its high bit when n is
// subtracted, and so does a zero byte when one is; a byte that is a
// tab or a line break is below 0x20, and is looked at byte by byte.)
func printableWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - 0x20*ones) &^ w
	del := w ^ 0x7F*ones
	isDel := (del - ones) &^ del
	return (w|below|isDel)&highs == 0
}

// FirstControl returns the first character of data before offset end that
// a YAML reader refuses, and whether there is one.
func FirstControl(data []byte, end int) (rune, bool) {
	end = min(end, len(data))
	for i := 0; i < end; {
		// The run of printable ASCII, most of any text, is skipped eight
		// bytes at a time; a word that holds a line break, a tab or the
		// start of a character is looked at one byte at a time, with one
		// look-up a byte.
		for i+8 <= end && printableWord(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
		}
		stop := min(i+8, end)
		for i < stop && !notPrintable[data[i]] {
			i++
		}
		if i == stop {
			continue
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
				return rune(c), true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r >= 0x80 && r < 0xA0 && r != 0x85 || r == 0xFFFE || r == 0xFFFF {
			return r, true
		}
		i += size
	}
	return 0, false
}

// LineBreakAt returns the length of the line break at offset at of data,
// or 0: YAML 1.1 breaks lines at "\n", "\r", NEL, LS and PS.
func LineBreakAt(data []byte, at int) int {
	switch {
	case data[at] == '\n' || data[at] == '\r':
		return 1
	case data[at] == 0xC2 && at+1 < len(data) && data[at+1] == 0x85:
		return 2
	case data[at] == 0xE2 && at+2 < len(data) && data[at+1] == 0x80 && (data[at+2] == 0xA8 || data[at+2] == 0xA9):
		return 3
	}
	return 0
}

// TrimLineBreak returns line without the line break it ends with.
func TrimLineBreak(line []byte) []byte {
	for _, br := range []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"} {
		if bytes.HasSuffix(line, []byte(br)) {
			return line[:len(line)-len(br)]
		}
	}
	return line
}
