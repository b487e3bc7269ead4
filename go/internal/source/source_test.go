package source

import (
	"slices"
	"testing"
)

// Lines break where YAML breaks them, and a leading byte order mark is no
// column.
func TestLinesBreakWhereYAMLBreaksThem(t *testing.T) {
	text := New([]byte("\xef\xbb\xbfa: 1\r\nb: é\rc\u0085d\u2028e\u2029f\n"))
	if got, want := text.LineStarts(), []int{3, 9, 15, 18, 22, 26, 28}; !slices.Equal(got, want) {
		t.Errorf("LineStarts() = %v, want %v", got, want)
	}
	if got := string(text.Line(2)); got != "b: é\r" {
		t.Errorf("Line(2) = %q", got)
	}
	if text.Line(0) != nil || text.Line(8) != nil {
		t.Error("a line the text does not have is not nil")
	}
	if got := string(text.Line(7)); got != "" {
		t.Errorf("Line(7) = %q", got)
	}
}

// Offset and LineColumn convert both ways, counting characters, also when
// Offset goes on from the position it converted last.
func TestOffsetsAndColumnsConvertBothWays(t *testing.T) {
	text := New([]byte("ab\néé: x\n"))
	for _, c := range []struct{ line, column, at int }{{1, 1, 0}, {1, 2, 1}, {2, 1, 3}, {2, 3, 7}, {2, 5, 9}, {2, 2, 5}} {
		if at := text.Offset(c.line, c.column); at != c.at {
			t.Errorf("Offset(%d, %d) = %d, want %d", c.line, c.column, at, c.at)
		}
		if line, column := text.LineColumn(c.at); line != c.line || column != c.column {
			t.Errorf("LineColumn(%d) = %d, %d, want %d, %d", c.at, line, column, c.line, c.column)
		}
	}
	if at := text.Offset(4, 1); at != -1 {
		t.Errorf("Offset(4, 1) = %d, want -1", at)
	}
}
