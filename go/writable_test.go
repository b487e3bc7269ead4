package taskspec_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

func TestSaveRefusesYAMLOverTheNodeBudget(t *testing.T) {
	spec := validSpec()
	spec.DifficultySignals = map[string]int64{}
	for i := range 60000 {
		spec.DifficultySignals[fmt.Sprintf("s%d", i)] = 1
	}
	path := filepath.Join(t.TempDir(), "taskspec.yaml")
	err := taskspec.Save(path, spec)
	var we *taskspec.WriteError
	if !errors.As(err, &we) || we.FieldPath != "difficulty_signals" ||
		!strings.HasPrefix(err.Error(), "taskspec: cannot write: the YAML would have 120,") ||
		!strings.HasSuffix(err.Error(), "more than the 100,000 a reader accepts (difficulty_signals has 120,002 of them)") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

func TestSaveRefusesYAMLOverTheSizeLimit(t *testing.T) {
	spec := validSpec()
	spec.Prompt = strings.Repeat("x", taskspec.MaxDocumentBytes)
	path := filepath.Join(t.TempDir(), "taskspec.yaml")
	err := taskspec.Save(path, spec)
	// Valid means portable: Validate refuses it first (TS107).
	var verr *taskspec.ValidationError
	if !errors.As(err, &verr) || len(verr.Violations) != 1 || verr.Violations[0].Code != "TS107" ||
		!strings.HasPrefix(err.Error(), "taskspec: task spec is too large: its canonical YAML is 16777") ||
		!strings.HasSuffix(err.Error(), "bytes, more than the limit of 16777216") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

// Around the budget, Save writes exactly what ParseYAML then reads: its
// count of the YAML's nodes is the reader's.
func TestSaveCountsNodesAsTheReaderDoes(t *testing.T) {
	saved := 0
	for n := 49986; n < 49991; n++ {
		spec := validSpec()
		spec.DifficultySignals = map[string]int64{}
		for i := range n {
			spec.DifficultySignals[fmt.Sprintf("s%d", i)] = 1
		}
		path := filepath.Join(t.TempDir(), "taskspec.yaml")
		err := taskspec.Save(path, spec)
		if err == nil {
			saved++
			data, _ := os.ReadFile(path)
			if _, perr := taskspec.ParseYAML(data); perr != nil {
				t.Fatalf("%d signals: saved, then refused: %v", n, perr)
			}
			continue
		}
		data, merr := taskspec.MarshalYAML(spec)
		if _, perr := taskspec.ParseYAML(data); merr != nil || perr == nil {
			t.Fatalf("%d signals: refused (%v), but the reader reads it", n, err)
		}
	}
	if saved == 0 || saved == 5 {
		t.Fatalf("the budget is not within the range tried: %d saved", saved)
	}
}
