package taskspec_test

import (
	"errors"
	"fmt"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// small is a valid spec whose every encoding fits on a few lines.
func small() *taskspecv1.TaskSpec {
	return &taskspecv1.TaskSpec{
		TaskSpecVersion:   1,
		TaskId:            "t-1",
		Language:          taskspecv1.Language_LANGUAGE_GO,
		Difficulty:        taskspecv1.Difficulty_DIFFICULTY_EASY,
		DifficultySignals: map[string]int64{"edge_count": 2},
		GeneratedFrom:     &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE},
		Prompt:            "Fix it.",
		Verification:      &taskspecv1.Verification{TestCmd: []string{"go", "test"}, TimeoutSeconds: 60},
	}
}

func ExampleMarshalJSON() {
	out, err := taskspec.MarshalJSON(small())
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "taskSpecVersion": "1",
	//   "taskId": "t-1",
	//   "language": "LANGUAGE_GO",
	//   "difficulty": "DIFFICULTY_EASY",
	//   "difficultySignals": {
	//     "edge_count": "2"
	//   },
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
}

func ExampleParseJSON() {
	spec, err := taskspec.ParseJSON([]byte(`{"task_spec_version": 1, "taskId": "t-1", "language": "LANGUAGE_GO",
		"difficulty": "DIFFICULTY_EASY", "generatedFrom": {"kind": "GENERATED_KIND_KG_TEMPLATE"},
		"prompt": "Fix it.", "verification": {"testCmd": ["go", "test"]}}`))
	fmt.Println(spec.GetTaskId(), spec.GetLanguage(), err)

	_, err = taskspec.ParseJSON([]byte(`{"taskId": "t-1", "promt": "Fix it."}`))
	var de *taskspec.DecodeError
	fmt.Println(errors.As(err, &de), de.FieldPath)
	fmt.Println(strings.SplitN(err.Error(), ";", 2)[0]) // then the fields it takes

	_, err = taskspec.ParseJSON([]byte("{\n  \"taskId\": \"t-1\"\n  \"prompt\": \"Fix it.\"\n}"))
	fmt.Println(err)

	_, err = taskspec.ParseJSON([]byte(`{"taskSpecVersion": "1", "taskId": "t-1"}`))
	fmt.Println(err)
	// Output:
	// t-1 LANGUAGE_GO <nil>
	// true promt
	// taskspec: unknown field "promt"
	// taskspec: line 3, column 3: invalid JSON: expected ',' or '}'
	// taskspec: invalid language "" (and 4 more problems)
}

func ExampleMarshalBinpb() {
	out, err := taskspec.MarshalBinpb(small())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes, starting % x\n", len(out), out[:7])
	// Output:
	// 54 bytes, starting 08 01 12 03 74 2d 31
}

func ExampleParseBinpb() {
	out, _ := taskspec.MarshalBinpb(small())
	spec, err := taskspec.ParseBinpb(out)
	fmt.Println(spec.GetTaskId(), err)

	// Field 2 (task_id) sent as a varint, not a string.
	_, err = taskspec.ParseBinpb(append(out, 0x10, 0x01))
	fmt.Println(err)
	// Field 99, which the schema does not have.
	_, err = taskspec.ParseBinpb(append(out, 0x98, 0x06, 0x01))
	fmt.Println(err)
	// Output:
	// t-1 <nil>
	// taskspec: wrong wire type for field task_id (number 2): a varint, where a length-delimited value was expected
	// taskspec: unknown field number 99 (taskspec.v1.TaskSpec): the data is not a TaskSpec v1 or was written by a newer schema
}

func ExampleConvert() {
	out, err := taskspec.Convert([]byte(sidecar), taskspec.YAML, taskspec.JSON)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out[:strings.Index(string(out), `  "difficultySignals"`)]))

	back, err := taskspec.Convert(out, taskspec.JSON, taskspec.YAML)
	fmt.Println(string(back) == sidecar, err)

	// A prompt of 9 MiB of '"' is 9 MiB of binary protobuf, but 18 MiB of
	// JSON, where each '"' is escaped: more than a reader accepts.
	spec := small()
	spec.Prompt = strings.Repeat(`"`, 9<<20)
	binpb, _ := taskspec.MarshalBinpb(spec)
	_, err = taskspec.Convert(binpb, taskspec.Binpb, taskspec.JSON)
	fmt.Println(err)
	// Output:
	// {
	//   "taskSpecVersion": "1",
	//   "taskId": "kg-go-impl-mathx-gcd",
	//   "language": "LANGUAGE_GO",
	//   "difficulty": "DIFFICULTY_MEDIUM",
	// true <nil>
	// taskspec: cannot write: the JSON would be 18,874,716 bytes, more than the 16,777,216 a reader accepts (prompt takes 18,874,384 of them)
}

func ExampleParse() {
	for _, f := range []taskspec.Format{taskspec.YAML, taskspec.JSON, taskspec.Binpb} {
		data, _ := taskspec.Marshal(small(), f)
		spec, err := taskspec.Parse(data, f)
		fmt.Println(f, spec.GetTaskId(), err)
	}
	// Output:
	// yaml t-1 <nil>
	// json t-1 <nil>
	// binpb t-1 <nil>
}

func ExampleMarshal() {
	out, err := taskspec.Marshal(small(), taskspec.YAML)
	fmt.Print(string(out[:strings.Index(string(out), "difficulty:")]), err, "\n")

	_, err = taskspec.Marshal(small(), "toml")
	fmt.Println(err)
	// Output:
	// task_spec_version: 1
	// task_id: t-1
	// language: go
	// <nil>
	// taskspec: unknown format "toml"; expected one of: yaml, json, binpb
}

func ExampleFormat() {
	f, err := taskspec.ParseFormat("binpb")
	fmt.Println(f == taskspec.Binpb, err)

	_, err = taskspec.ParseFormat("xml")
	fmt.Println(err)
	// Output:
	// true <nil>
	// taskspec: unknown format "xml"; expected one of: yaml, json, binpb
}

func ExampleParseFormat() {
	for _, name := range []string{"yaml", "json", "binpb", "YAML"} {
		f, err := taskspec.ParseFormat(name)
		fmt.Printf("%q %v\n", f, err)
	}
	// Output:
	// "yaml" <nil>
	// "json" <nil>
	// "binpb" <nil>
	// "" taskspec: unknown format "YAML"; expected one of: yaml, json, binpb
}

func ExampleFormatForPath() {
	for _, path := range []string{"a/taskspec.yaml", "t.YML", "t.json", "t.pb", "t.txt"} {
		f, ok := taskspec.FormatForPath(path)
		fmt.Printf("%s %q %v\n", path, f, ok)
	}
	// Output:
	// a/taskspec.yaml "yaml" true
	// t.YML "yaml" true
	// t.json "json" true
	// t.pb "binpb" true
	// t.txt "" false
}
