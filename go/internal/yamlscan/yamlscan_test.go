package yamlscan

import "testing"

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
