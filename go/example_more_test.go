package taskspec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

func ExampleArtifactPathProblem() {
	for _, path := range []string{"mathx/gcd.go", "", "/etc/passwd", `C:\x`, "a/../../b"} {
		fmt.Printf("%q: %q\n", path, taskspec.ArtifactPathProblem(path))
	}
	// Output:
	// "mathx/gcd.go": ""
	// "": "the path is empty: it names no file"
	// "/etc/passwd": "the path is absolute: artifact paths are relative to the workspace"
	// "C:\\x": "the path is absolute: artifact paths are relative to the workspace"
	// "a/../../b": "the path climbs out of the workspace with .."
}

func ExampleIsLocalArtifactPath() {
	fmt.Println(taskspec.IsLocalArtifactPath("src/main.go"), taskspec.IsLocalArtifactPath("../main.go"))
	// Output: true false
}

func ExampleArtifactPathError() {
	_, err := taskspec.ArtifactPath("/srv/task-7", "/etc/passwd")
	var pe *taskspec.ArtifactPathError
	if errors.As(err, &pe) {
		fmt.Printf("%q: %s\n", pe.Path, pe.Reason)
	}
	// Output: "/etc/passwd": the path is absolute: artifact paths are relative to the workspace
}

func ExampleDecodeYAML() {
	// Invalid, but readable: DecodeYAML does not validate.
	spec, err := taskspec.DecodeYAML([]byte("task_spec_version: 2\ntask_id: t\n"))
	fmt.Println(spec.GetTaskSpecVersion(), err)
	fmt.Println(taskspec.Validate(spec))

	_, err = taskspec.DecodeYAML([]byte("language: cobol\n"))
	fmt.Println(err)
	// Output:
	// 2 <nil>
	// taskspec: unsupported task_spec_version 2 (this build produces v1) (and 5 more problems)
	// taskspec: invalid language "cobol"
}

func ExampleLanguageString() {
	s, ok := taskspec.LanguageString(taskspecv1.Language_LANGUAGE_TYPESCRIPT)
	fmt.Printf("%q %v\n", s, ok)
	s, ok = taskspec.LanguageString(99)
	fmt.Printf("%q %v\n", s, ok)
	// Output:
	// "typescript" true
	// "" false
}

func ExampleParseLanguage() {
	l, err := taskspec.ParseLanguage("python")
	fmt.Println(l, err)
	_, err = taskspec.ParseLanguage("cobol")
	fmt.Println(err)
	// Output:
	// LANGUAGE_PYTHON <nil>
	// taskspec: invalid language "cobol"
}

func ExampleDifficultyString() {
	s, ok := taskspec.DifficultyString(taskspecv1.Difficulty_DIFFICULTY_HARD)
	fmt.Printf("%q %v\n", s, ok)
	// Output: "hard" true
}

func ExampleParseDifficulty() {
	d, err := taskspec.ParseDifficulty("easy")
	fmt.Println(d, err)
	_, err = taskspec.ParseDifficulty("Easy")
	fmt.Println(err)
	// Output:
	// DIFFICULTY_EASY <nil>
	// taskspec: invalid difficulty "Easy"
}

func ExampleGeneratedKindString() {
	s, ok := taskspec.GeneratedKindString(taskspecv1.GeneratedKind_GENERATED_KIND_BENCHMARK_SEED)
	fmt.Printf("%q %v\n", s, ok)
	// Output: "benchmark_seed" true
}

func ExampleParseGeneratedKind() {
	k, err := taskspec.ParseGeneratedKind("kg_template")
	fmt.Println(k, err)
	// Output: GENERATED_KIND_KG_TEMPLATE <nil>
}

func ExampleSave() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "taskspec.yaml")

	spec := small()
	if err := taskspec.Save(path, spec); err != nil {
		panic(err)
	}
	spec.TaskId = ""
	fmt.Println(taskspec.Save(path, spec)) // refused: nothing is written
	got, err := taskspec.Load(path)
	fmt.Println(got.GetTaskId(), err)
	// Output:
	// taskspec: task_id is required
	// t-1 <nil>
}

func ExampleLoad() {
	dir, err := os.MkdirTemp("", "taskspec-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "taskspec.yaml")
	if err := os.WriteFile(path, []byte(sidecar), 0o644); err != nil {
		panic(err)
	}
	spec, err := taskspec.Load(path)
	fmt.Println(spec.GetTaskId(), err)

	_, err = taskspec.Load(dir) // a directory is not a sidecar
	fmt.Println(errors.Is(err, taskspec.ErrNotRegular))

	// A content error names the file, and still holds ParseYAML's error.
	if err := os.WriteFile(path, []byte("task_spec_version: 1\ntaskid: x\n"), 0o644); err != nil {
		panic(err)
	}
	_, err = taskspec.Load(path)
	var de *taskspec.DecodeError
	fmt.Println(strings.HasPrefix(err.Error(), path+": taskspec: decode task spec: "), errors.As(err, &de), de.FieldPath)
	// Output:
	// kg-go-impl-mathx-gcd <nil>
	// true
	// true true taskid
}

// LoadFS reads a sidecar from any fs.FS: an os.DirFS, an embed.FS, or, in
// tests, a fstest.MapFS.
func ExampleLoadFS() {
	fsys := fstest.MapFS{
		"tasks/gcd/taskspec.yaml": {Data: []byte(sidecar)},
		"tasks/bad/taskspec.yaml": {Data: []byte("task_spec_version: 1\n")},
	}
	spec, err := taskspec.LoadFS(fsys, "tasks/gcd/taskspec.yaml")
	fmt.Println(spec.GetTaskId(), err)

	_, err = taskspec.LoadFS(fsys, "tasks/bad/taskspec.yaml")
	var invalid *taskspec.ValidationError
	fmt.Println(err, errors.As(err, &invalid))

	_, err = taskspec.LoadFS(fsys, "tasks/gcd") // a directory is not a sidecar
	fmt.Println(errors.Is(err, taskspec.ErrNotRegular))
	// Output:
	// kg-go-impl-mathx-gcd <nil>
	// tasks/bad/taskspec.yaml: taskspec: task_id is required (and 5 more problems) true
	// true
}

// Read takes a sidecar from a stream, such as standard input, and reads no
// more of it than the document limit allows.
func ExampleRead() {
	spec, err := taskspec.Read(strings.NewReader(sidecar))
	fmt.Println(spec.GetTaskId(), err)

	_, err = taskspec.Read(strings.NewReader(strings.Repeat("#", taskspec.MaxDocumentBytes+1)))
	fmt.Println(err)
	// Output:
	// kg-go-impl-mathx-gcd <nil>
	// taskspec: decode task spec: document is larger than 16777216 bytes
}

// DifficultyInputs names each measurement, so that swapped counts cannot
// compile silently; DeriveDifficulty bands each and the hardest wins.
func ExampleDifficultyInputs() {
	for _, in := range []taskspec.DifficultyInputs{
		{NodeCount: 2, EdgeCount: 1, Cyclomatic: 1},
		{NodeCount: 2, EdgeCount: 1, Cyclomatic: 9},
		{NodeCount: 5, EdgeCount: 7, Cyclomatic: 2},
	} {
		band, _, err := taskspec.DeriveDifficulty(in)
		fmt.Printf("%+v %v %v\n", in, band, err)
	}
	// Output:
	// {NodeCount:2 EdgeCount:1 Cyclomatic:1} DIFFICULTY_EASY <nil>
	// {NodeCount:2 EdgeCount:1 Cyclomatic:9} DIFFICULTY_HARD <nil>
	// {NodeCount:5 EdgeCount:7 Cyclomatic:2} DIFFICULTY_MEDIUM <nil>
}

func ExampleSignalKeys() {
	fmt.Println(taskspec.SignalKeys(&taskspecv1.TaskSpec{
		DifficultySignals: map[string]int64{"edge_count": 9, "cyclomatic_complexity": 4, "a": 1},
	}))
	// Output: [a cyclomatic_complexity edge_count]
}

func ExampleViolations() {
	spec := small()
	spec.TaskId, spec.Prompt = "", " "
	for _, v := range taskspec.Violations(spec) {
		fmt.Printf("%s: %s\n", v.FieldPath, v.Message)
	}
	// Output:
	// task_id: task_id is required
	// prompt: prompt is required
}

func ExampleViolation() {
	_, err := taskspec.ParseYAML([]byte(strings.Replace(sidecar, "language: go", "language: cobol", 1)))
	var ve *taskspec.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(ve.Violations[0])
		fmt.Println(ve.Violations[0].FieldPath, ve.Violations[0].Line, ve.Violations[0].Column)
	}
	// Output:
	// line 3, column 11: invalid language "cobol"
	// language 3 11
}

func ExampleValidationError() {
	err := taskspec.Validate(&taskspecv1.TaskSpec{TaskSpecVersion: 1})
	var ve *taskspec.ValidationError
	fmt.Println(errors.As(err, &ve), len(ve.Violations))
	fmt.Println(err) // the first violation, in the Go package's words
	// Output:
	// true 6
	// taskspec: task_id is required (and 5 more problems)
}

func ExampleStrictError() {
	// The Go package would read 1.5 as 1; this package refuses it.
	_, err := taskspec.ParseYAML([]byte(strings.Replace(sidecar, "timeout_seconds: 120", "timeout_seconds: 1.5", 1)))
	var se *taskspec.StrictError
	if errors.As(err, &se) {
		fmt.Println(se.FieldPath, se.Line, se.Column)
	}
	fmt.Println(err)
	// Output:
	// verification.timeout_seconds 17 22
	// taskspec: decode task spec: line 17, column 22: verification.timeout_seconds: expected an integer, got the non-integral number "1.5"
}

func ExampleEnumError() {
	spec := small()
	spec.Language = 42
	_, err := taskspec.MarshalYAML(spec)
	var ee *taskspec.EnumError
	if errors.As(err, &ee) {
		fmt.Println(ee.FieldPath, ee.Enum, ee.Number)
	}
	fmt.Println(err)
	// Output:
	// language taskspec.v1.Language 42
	// taskspec: language: enum value 42 is not defined in taskspec.v1.Language and cannot be written as YAML
}

func ExampleWriteError() {
	spec := small()
	spec.DifficultySignals = map[string]int64{}
	for i := range 60000 {
		spec.DifficultySignals[fmt.Sprint("s", i)] = int64(i)
	}
	data, _ := taskspec.MarshalBinpb(spec)
	_, err := taskspec.Convert(data, taskspec.Binpb, taskspec.YAML)
	var we *taskspec.WriteError
	fmt.Println(errors.As(err, &we), we.FieldPath)
	fmt.Println(err)
	// Output:
	// true difficulty_signals
	// taskspec: cannot write: the YAML would have 120,025 nodes, more than the 100,000 a reader accepts (difficulty_signals has 120,002 of them)
}

func ExampleNewRegistry() {
	reg := taskspec.NewRegistry()
	fmt.Println(reg.Languages())
	// Output: []
}

func ExampleRegistry_Register() {
	reg := taskspec.NewRegistry()
	fmt.Println(reg.Register(goGenerator{}))
	fmt.Println(reg.Register(goGenerator{}))
	fmt.Println(reg.Register(nil))
	// Output:
	// <nil>
	// taskspec: generator for language "go" already registered
	// taskspec: cannot register nil generator
}

func ExampleRegistry_Lookup() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(goGenerator{})
	_, ok := reg.Lookup(taskspecv1.Language_LANGUAGE_GO)
	_, other := reg.Lookup(taskspecv1.Language_LANGUAGE_PYTHON)
	fmt.Println(ok, other)
	// Output: true false
}

func ExampleRegistry_Languages() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(goGenerator{})
	fmt.Println(reg.Languages())
	// Output: [LANGUAGE_GO]
}

// A Generator makes task specs for one language; goGenerator, in this
// package's examples, derives the difficulty with DeriveDifficulty.
func ExampleGenerator() {
	var gen taskspec.Generator = goGenerator{}
	spec, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "impl-pure-fn"})
	fmt.Println(gen.Language(), spec.GetGeneratedFrom().GetTemplateId(), err, taskspec.Validate(spec))
	// Output: LANGUAGE_GO impl-pure-fn <nil> <nil>
}

func ExampleEnumString() {
	s, ok := taskspec.EnumString(taskspecv1.Difficulty_DIFFICULTY_HARD)
	fmt.Println(s, ok)
	// Output: hard true
}

func ExampleParseEnum() {
	ed := taskspecv1.GeneratedKind(0).Descriptor()
	n, err := taskspec.ParseEnum(ed, "benchmark_seed")
	fmt.Println(taskspecv1.GeneratedKind(n), err)
	_, err = taskspec.ParseEnum(ed, "Benchmark_Seed")
	fmt.Println(err)
	// Output:
	// GENERATED_KIND_BENCHMARK_SEED <nil>
	// taskspec: invalid generated_from.kind "Benchmark_Seed"
}
