package source

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// EditorPosition gives every case of the shared table the position an
// editor shows, as the Python library's editor_position does.
func TestEditorPositionsOfTheSharedTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "contract", "editor_positions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Text   string `json:"text"`
			YAML   [2]int `json:"yaml"`
			Editor [2]int `json:"editor"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 10 {
		t.Fatalf("%d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		line, column := New([]byte(c.Text)).EditorPosition(c.YAML[0], c.YAML[1])
		if [2]int{line, column} != c.Editor {
			t.Errorf("EditorPosition(%d, %d) of %q = %d, %d, want %v", c.YAML[0], c.YAML[1], c.Text, line, column, c.Editor)
		}
	}
	// A leading byte order mark is no column, and the text's own positions
	// start after it.
	text := New([]byte("\xef\xbb\xbfa: \"\u0085\"\nb: 1\n"))
	if line, column := text.EditorPosition(3, 1); line != 2 || column != 1 {
		t.Errorf("after a byte order mark: EditorPosition(3, 1) = %d, %d, want 2, 1", line, column)
	}
}

// A text that is not UTF-8 keeps its positions: no YAML reader reads it.
func TestEditorPositionKeepsThePositionsOfATextThatIsNotUTF8(t *testing.T) {
	text := New([]byte("a: \"\u0085\"\nb: \xff\n"))
	if line, column := text.EditorPosition(3, 4); line != 3 || column != 4 {
		t.Errorf("EditorPosition(3, 4) = %d, %d, want 3, 4", line, column)
	}
}
