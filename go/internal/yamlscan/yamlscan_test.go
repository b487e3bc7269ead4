package yamlscan

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf8"
)

// Line breaks are YAML 1.1's, quoted scalars end where libyaml ends them,
// and a block scalar's content is every line indented further.
func TestTheScannerRules(t *testing.T) {
	for text, want := range map[string]int{"\n": 1, "\r\n": 1, "\u0085": 2, "\u2028": 3, "\u2029": 3, "a": 0, "\u2027": 0} {
		if got := LineBreakAt([]byte(text), 0); got != want {
			t.Errorf("LineBreakAt(%q) = %d, want %d", text, got, want)
		}
	}
	for text, want := range map[string]int{`'it''s' x`: 7, `"a\"b" x`: 6, `'open`: -1, `"a\\" x`: 5} {
		if got := CloseQuote([]byte(text), 0); got != want {
			t.Errorf("CloseQuote(%q) = %d, want %d", text, got, want)
		}
		if got := SkipQuoted([]byte(text), 0); got != max(want, 0) && !(want < 0 && got == len(text)) {
			t.Errorf("SkipQuoted(%q) = %d", text, got)
		}
	}
	if got := SkipBlockScalar([]byte("a: |\n  x\n\n  y\nb: 1\n"), 3, 0); got != 14 {
		t.Errorf("SkipBlockScalar = %d, want 14", got)
	}
	if r, found := FirstControl([]byte("a\tb\x7fc"), 10); !found || r != 0x7f {
		t.Errorf("FirstControl = %q, %v", r, found)
	}
	if _, found := FirstControl([]byte("a\x01"), 1); found {
		t.Error("FirstControl looked past end")
	}
}

// The word test agrees with the byte table for every byte at every place
// of a word of printable text, and for every pair of bytes.
func TestPrintableWordAgreesWithTheTable(t *testing.T) {
	for at := 0; at < 8; at++ {
		for c := 0; c < 256; c++ {
			word := []byte("abcdefgh")
			word[at] = byte(c)
			want := c >= 0x20 && c < 0x7F
			if got := printableWord(binary.LittleEndian.Uint64(word)); got != want {
				t.Fatalf("byte %#02x at %d: printableWord = %v, want %v", c, at, got, want)
			}
		}
	}
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			word := []byte{byte(a), 'x', 'x', byte(b), 'x', 'x', 'x', 'x'}
			want := a >= 0x20 && a < 0x7F && b >= 0x20 && b < 0x7F
			if got := printableWord(binary.LittleEndian.Uint64(word)); got != want {
				t.Fatalf("bytes %#02x, %#02x: printableWord = %v, want %v", a, b, got, want)
			}
		}
	}
}

// FirstControl finds a control character wherever it stands against the
// words it skips, and none in printable text.
func TestFirstControlAtEveryOffset(t *testing.T) {
	base := bytes.Repeat([]byte("line of text: \t\"x\" \u00e9\n"), 4)
	if r, found := FirstControl(base, len(base)); found {
		t.Fatalf("FirstControl(printable) = %U", r)
	}
	for at := 0; at <= len(base); at++ {
		for _, ctl := range []string{"\x00", "\x1f", "\x7f", "\u0080", "\ufffe"} {
			text := append(append(append([]byte{}, base[:at]...), ctl...), base[at:]...)
			if !utf8.Valid(text) {
				continue // inside a character
			}
			r, found := FirstControl(text, len(text))
			if !found || string(r) != ctl {
				t.Fatalf("%q at %d: FirstControl = %U, %v", ctl, at, r, found)
			}
		}
	}
}
