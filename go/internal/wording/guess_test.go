package wording

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// The table the Python library's tests read too.
func TestSuggestionsMatchTheSharedTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "contract", "suggestions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct{ Word, Candidates, Want string }
	}
	if err := json.Unmarshal(raw, &table); err != nil || len(table.Cases) < 200 {
		t.Fatalf("%d cases, %v", len(table.Cases), err)
	}
	for _, c := range table.Cases {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(c.Candidates))
		if err != nil {
			t.Fatal(err)
		}
		fields := d.(protoreflect.MessageDescriptor).Fields()
		names := make([]string, fields.Len())
		for i := range names {
			names[i] = string(fields.Get(i).Name())
		}
		if got := Guess(c.Word, names); got != c.Want {
			t.Errorf("Guess(%q, %s) = %q, want %q", c.Word, c.Candidates, got, c.Want)
		}
	}
}
