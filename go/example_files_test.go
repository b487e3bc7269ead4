package taskspec_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/proto"

	taskspec "github.com/taskspec/taskspec/go"
)

// Save writes a file in the format its extension names: canonical JSON for
// a .json file, which Load reads back by the same rule.
func ExampleSave_json() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gcd.taskspec.json")

	spec := small()
	spec.DifficultySignals = nil
	if err := taskspec.Save(path, spec); err != nil {
		panic(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(data))
	got, err := taskspec.Load(path)
	fmt.Println(proto.Equal(got, spec), err)
	// Output:
	// {
	//   "taskSpecVersion": "1",
	//   "taskId": "t-1",
	//   "language": "LANGUAGE_GO",
	//   "difficulty": "DIFFICULTY_EASY",
	//   "generatedFrom": {
	//     "kind": "GENERATED_KIND_KG_TEMPLATE"
	//   },
	//   "prompt": "Fix it.",
	//   "verification": {
	//     "testCmd": [
	//       "go",
	//       "test"
	//     ],
	//     "timeoutSeconds": "60"
	//   }
	// }
	// true <nil>
}

// A name whose extension names no format is refused before anything is
// read or written; SaveFormat and LoadFormat take the format instead.
func ExampleFormatError() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gcd.spec")

	err = taskspec.Save(path, small())
	var ferr *taskspec.FormatError
	if errors.As(err, &ferr) {
		fmt.Println(ferr.Violation.Code, ferr.Violation.Message)
		fmt.Println(ferr.Violation.Hint)
	}
	_, statErr := os.Stat(path)
	fmt.Println(errors.Is(statErr, os.ErrNotExist))
	// Output:
	// TS903 cannot tell the format of "gcd.spec" from its extension
	// expected one of: .yaml, .yml, .json, .binpb, .pb
	// true
}

// The error names the file, then the problem and its hint.
func ExampleFormatError_Error() {
	err := taskspec.Save(filepath.Join(os.TempDir(), "notes.txt"), small())
	text := err.Error()
	fmt.Println(strings.HasPrefix(text, filepath.Join(os.TempDir(), "notes.txt")+": "))
	fmt.Println(strings.HasSuffix(text, `cannot tell the format of "notes.txt" from its extension; expected one of: .yaml, .yml, .json, .binpb, .pb`))
	// Output:
	// true
	// true
}

func ExampleSaveFormat() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gcd.out")

	spec := small()
	if err := taskspec.SaveFormat(path, spec, taskspec.Binpb); err != nil {
		panic(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	want, err := taskspec.MarshalBinpb(spec)
	fmt.Println(string(data) == string(want), err)
	got, err := taskspec.LoadFormat(path, taskspec.Binpb)
	fmt.Println(proto.Equal(got, spec), err)
	// Output:
	// true <nil>
	// true <nil>
}

// LoadFormat reads a file in the format given, whatever its name.
func ExampleLoadFormat() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gcd.spec")
	if err := os.WriteFile(path, []byte(`{"taskSpecVersion": 1, "taskId": "t-1", "language": "LANGUAGE_GO",
"difficulty": "DIFFICULTY_EASY", "generatedFrom": {"kind": "GENERATED_KIND_KG_TEMPLATE"},
"prompt": "Fix it.", "verification": {"testCmd": ["go", "test"]}}`), 0o644); err != nil {
		panic(err)
	}
	spec, err := taskspec.LoadFormat(path, taskspec.JSON)
	fmt.Println(spec.GetTaskId(), err)

	_, err = taskspec.Load(path) // .spec names no format
	var ferr *taskspec.FormatError
	fmt.Println(errors.As(err, &ferr))
	// Output:
	// t-1 <nil>
	// true
}

func ExampleReadFormat() {
	data, err := taskspec.MarshalBinpb(small())
	if err != nil {
		panic(err)
	}
	spec, err := taskspec.ReadFormat(strings.NewReader(string(data)), taskspec.Binpb)
	fmt.Println(spec.GetTaskId(), err)
	// Output:
	// t-1 <nil>
}
