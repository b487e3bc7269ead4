package taskspec_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

// The table both libraries' tests read.
func TestArtifactPathProblemsMatchTheSharedTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "tests", "contract", "artifact_paths.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct{ Path, Reason string }
	}
	if err := json.Unmarshal(raw, &table); err != nil || len(table.Cases) < 20 {
		t.Fatalf("%d cases, %v", len(table.Cases), err)
	}
	ws := t.TempDir()
	for _, c := range table.Cases {
		if got := taskspec.ArtifactPathProblem(c.Path); got != c.Reason {
			t.Errorf("ArtifactPathProblem(%q) = %q, want %q", c.Path, got, c.Reason)
		}
		if taskspec.IsLocalArtifactPath(c.Path) != (c.Reason == "") {
			t.Errorf("IsLocalArtifactPath(%q) disagrees", c.Path)
		}
		_, err := taskspec.ArtifactPath(ws, c.Path)
		var perr *taskspec.ArtifactPathError
		if c.Reason == "" && err != nil || c.Reason != "" && (!errors.As(err, &perr) || perr.Reason != c.Reason) {
			t.Errorf("ArtifactPath(%q): %v", c.Path, err)
		}
	}
}

func TestArtifactPathRefusesALinkOutOfTheWorkspace(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Skip(err)
	}
	_, err := taskspec.ArtifactPath(ws, "out/secret")
	want := `taskspec: artifact path "out/secret" is not allowed: the path leads out of the workspace through a symbolic link`
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
	got, err := taskspec.ArtifactPath(ws, "src/../main.go")
	if err != nil || got != filepath.Join(ws, "main.go") {
		t.Errorf("got %q, %v", got, err)
	}
}

func ExampleArtifactPath() {
	_, err := taskspec.ArtifactPath("/srv/task-7", "../../etc/passwd")
	fmt.Println(err)
	// Output: taskspec: artifact path "../../etc/passwd" is not allowed: the path climbs out of the workspace with ..
}
