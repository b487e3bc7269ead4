package taskspec

import (
	"math/rand"
	"testing"
)

// The cheap tests of promptComment never rule out a prompt that the full
// look finds ending before " #": checked on prompts built from the pieces
// such a prompt is made of (words, blanks, comments, every line break,
// continuation lines, characters, flow and quote indicators).
func TestMayEndBeforeCommentHoldsWhereThePromptEndsBeforeOne(t *testing.T) {
	pieces := []string{"fix", "issue", " ", " ", "  ", "\t", " #", " #", "#12", "\n  ", "\r\n  ", "\r  ", "\u0085  ", "\u2028  ",
		"\n\n  ", "\u00e9", "x:y", "-", "'", "\"", "[", "!"}
	rng := rand.New(rand.NewSource(1))
	found := 0
	for range 30000 {
		text := []byte("task_id: t\nprompt: ")
		for range 1 + rng.Intn(8) {
			text = append(text, pieces[rng.Intn(len(pieces))]...)
		}
		text = append(text, "\nlanguage: go\n"...)
		m, w, err := decode(text)
		if err != nil || m.Prompt == "" {
			continue
		}
		if _, ok := w.promptBeforeComment(m.Prompt); ok {
			found++
			if !mayEndBeforeComment(text, m.Prompt) {
				t.Fatalf("%q: the prompt %q ends before \" #\", but mayEndBeforeComment is false", text, m.Prompt)
			}
		}
	}
	if found < 500 {
		t.Fatalf("only %d prompts end before \" #\": the pieces no longer make them", found)
	}
	t.Logf("%d prompts end before \" #\"", found)
}
