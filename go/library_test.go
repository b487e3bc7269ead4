package taskspec_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

func validSpec() *taskspecv1.TaskSpec {
	return &taskspecv1.TaskSpec{
		TaskSpecVersion: 1, TaskId: "t-1",
		Language:      taskspecv1.Language_LANGUAGE_GO,
		Difficulty:    taskspecv1.Difficulty_DIFFICULTY_EASY,
		GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE},
		Prompt:        "do it",
		Verification:  &taskspecv1.Verification{TestCmd: []string{"go", "test"}},
	}
}

// The enum tables are generated from the descriptors; every value must have
// the spelling that is its name less the enum prefix, lower-cased, and
// UNSPECIFIED must be "".
func TestEnumTablesMatchDescriptors(t *testing.T) {
	check := func(d protoreflect.EnumDescriptor, prefix string, str func(int32) (string, bool), parse func(string) (int32, error)) {
		values := d.Values()
		for i := 0; i < values.Len(); i++ {
			v := values.Get(i)
			want := strings.ToLower(strings.TrimPrefix(string(v.Name()), prefix))
			if v.Number() == 0 {
				want = ""
			}
			got, ok := str(int32(v.Number()))
			if !ok || got != want {
				t.Errorf("%s: spelled %q, %v; want %q", v.FullName(), got, ok, want)
			}
			if want == "" {
				continue
			}
			if n, err := parse(want); err != nil || n != int32(v.Number()) {
				t.Errorf("parse %q = %d, %v", want, n, err)
			}
			if _, err := parse(strings.ToUpper(want)); err == nil {
				t.Errorf("parse %q: case must matter", strings.ToUpper(want))
			}
		}
		if _, ok := str(int32(values.Len()) + 5); ok {
			t.Errorf("%s: an undefined number has a spelling", d.FullName())
		}
		if _, err := parse(""); err == nil {
			t.Errorf("%s: \"\" parses", d.FullName())
		}
	}
	check(taskspecv1.Language(0).Descriptor(), "LANGUAGE_",
		func(n int32) (string, bool) { return taskspec.LanguageString(taskspecv1.Language(n)) },
		func(s string) (int32, error) { v, err := taskspec.ParseLanguage(s); return int32(v), err })
	check(taskspecv1.Difficulty(0).Descriptor(), "DIFFICULTY_",
		func(n int32) (string, bool) { return taskspec.DifficultyString(taskspecv1.Difficulty(n)) },
		func(s string) (int32, error) { v, err := taskspec.ParseDifficulty(s); return int32(v), err })
	check(taskspecv1.GeneratedKind(0).Descriptor(), "GENERATED_KIND_",
		func(n int32) (string, bool) { return taskspec.GeneratedKindString(taskspecv1.GeneratedKind(n)) },
		func(s string) (int32, error) { v, err := taskspec.ParseGeneratedKind(s); return int32(v), err })
	if _, err := taskspec.ParseGeneratedKind("manual"); err == nil || err.Error() != `taskspec: invalid generated_from.kind "manual"` {
		t.Errorf("ParseGeneratedKind(manual) = %v", err)
	}
}

func TestValidateOrderWordingAndAllViolations(t *testing.T) {
	s := &taskspecv1.TaskSpec{Language: 7, Verification: &taskspecv1.Verification{TimeoutSeconds: -1}}
	want := []taskspec.Violation{
		{FieldPath: "task_spec_version", Message: "unsupported task_spec_version 0 (this build produces v1)", Code: "TS105"},
		{FieldPath: "task_id", Message: "task_id is required", Code: "TS101"},
		{FieldPath: "language", Message: `invalid language "7"`, Code: "TS103"},
		{FieldPath: "difficulty", Message: `invalid difficulty ""`, Code: "TS103"},
		{FieldPath: "generated_from.kind", Message: `invalid generated_from.kind ""`, Code: "TS103"},
		{FieldPath: "prompt", Message: "prompt is required", Code: "TS101"},
		{FieldPath: "verification.test_cmd", Message: "verification.test_cmd is required", Code: "TS102"},
		{FieldPath: "verification.timeout_seconds", Message: "verification.timeout_seconds must be non-negative, got -1", Code: "TS104"},
	}
	for i := range want {
		want[i].Severity = "error"
	}
	if got := taskspec.Violations(s); !reflect.DeepEqual(got, want) {
		t.Errorf("Violations = %#v", got)
	}
	err := taskspec.Validate(s)
	var verr *taskspec.ValidationError
	if !errors.As(err, &verr) || err.Error() != "taskspec: unsupported task_spec_version 0 (this build produces v1) (and 7 more problems)" || len(verr.Violations) != 8 {
		t.Errorf("Validate = %v", err)
	}
	v := validSpec()
	v.TaskId = "\x1c" // not space to Go's strings.TrimSpace
	if err := taskspec.Validate(v); err != nil {
		t.Errorf("Validate(valid) = %v", err)
	}
	v.Prompt = " \u3000\n"
	if err := taskspec.Validate(v); err == nil || err.Error() != "taskspec: prompt is required" {
		t.Errorf("blank prompt: %v", err)
	}
}

func TestParseYAMLLocatesViolations(t *testing.T) {
	doc := "task_spec_version: 1\ntask_id: t\nlanguage: cobol\ndifficulty: easy\ngenerated_from:\n    kind: kg_template\nprompt: p\nverification:\n    timeout_seconds: -3\n"
	_, err := taskspec.ParseYAML([]byte(doc))
	var verr *taskspec.ValidationError
	if !errors.As(err, &verr) || err.Error() != `taskspec: invalid language "cobol" (and 2 more problems)` {
		t.Fatalf("ParseYAML = %v", err)
	}
	want := []taskspec.Violation{
		{FieldPath: "language", Message: `invalid language "cobol"`, Line: 3, Column: 11, Code: "TS103", Severity: "error"},
		{FieldPath: "verification.test_cmd", Message: "verification.test_cmd is required", Line: 9, Column: 5, Code: "TS102",
			Severity: "error"},
		{FieldPath: "verification.timeout_seconds", Message: "verification.timeout_seconds must be non-negative, got -3", Line: 9, Column: 22,
			Code: "TS104", Severity: "error"},
	}
	if !reflect.DeepEqual(verr.Violations, want) {
		t.Errorf("violations = %#v", verr.Violations)
	}
	if got := verr.Violations[0].String(); got != `line 3, column 11: invalid language "cobol"` {
		t.Errorf("String() = %q", got)
	}
}

func TestStricterThanTheGoPackage(t *testing.T) {
	base := "task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\ngenerated_from: {kind: kg_template}\nprompt: p\n"
	cases := map[string]string{
		"fraction":       base + "verification: {test_cmd: [x], timeout_seconds: 1.5}\n",
		"null item":      base + "verification: {test_cmd: [x, ~]}\n",
		"null key":       base + "difficulty_signals: {~: 1}\nverification: {test_cmd: [x]}\n",
		"merge key":      base + "difficulty_signals: {<<: {a: 1}}\nverification: {test_cmd: [x]}\n",
		"tag":            base + "verification: {test_cmd: [!!binary eA==]}\n",
		"bang int":       base + "verification: {test_cmd: [x], timeout_seconds: ! 5}\n",
		"two documents":  base + "verification: {test_cmd: [x]}\n---\n",
		"float64 digits": base + "difficulty_signals: {a: 9007199254740993.0}\nverification: {test_cmd: [x]}\n",
		"line-start BOM": base + "verification: {test_cmd: [x,\n\ufeffy]}\n",
		"flow colon":     base + "verification: {test_cmd: [go, 'a', b:]}\n",
		"too large":      base + "verification: {test_cmd: [x]}\n#" + strings.Repeat("x", taskspec.MaxDocumentBytes),
	}
	for name, doc := range cases {
		_, err := taskspec.ParseYAML([]byte(doc))
		var serr *taskspec.StrictError
		if !errors.As(err, &serr) || !strings.HasPrefix(err.Error(), "taskspec: decode task spec: ") {
			t.Errorf("%s: ParseYAML = %v, want a *StrictError", name, err)
		}
	}
}

func TestMarshalYAMLRefusesUndefinedEnumNumbers(t *testing.T) {
	s := validSpec()
	s.GeneratedFrom.Kind = 9
	_, err := taskspec.MarshalYAML(s)
	var eerr *taskspec.EnumError
	if !errors.As(err, &eerr) || err.Error() != "taskspec: generated_from.kind: enum value 9 is not defined in taskspec.v1.GeneratedKind and cannot be written as YAML" {
		t.Errorf("MarshalYAML = %v", err)
	}
	if _, err := taskspec.MarshalYAML(nil); err == nil {
		t.Error("MarshalYAML(nil) succeeded")
	}
}

// yaml.v3 writes a "<<" key and a tab-first multi-line key unreadably;
// MarshalYAML fixes both wherever they sit among the keys, also after a
// multi-line key whose content holds an empty line.
func TestMarshalYAMLFixesSignalKeysAfterAnEmptyLine(t *testing.T) {
	s := validSpec()
	s.DifficultySignals = map[string]int64{"\n": 1, "<<": 2, "a\n\nb": 3, "\tq\nz": 4}
	out, err := taskspec.MarshalYAML(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\n    \"<<\": 2\n") || !strings.Contains(string(out), "\n    ? |4-\n        \tq\n") {
		t.Errorf("MarshalYAML left a key yaml.v3 cannot read back:\n%s", out)
	}
	back, err := taskspec.ParseYAML(out)
	if err != nil {
		t.Fatalf("ParseYAML(MarshalYAML(s)): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.DifficultySignals, s.DifficultySignals) {
		t.Errorf("signals read back as %v, want %v", back.DifficultySignals, s.DifficultySignals)
	}
}

func TestSignalKeysUsesByteOrder(t *testing.T) {
	s := validSpec()
	s.DifficultySignals = map[string]int64{"a10": 1, "a9": 2, "b": 3, "B": 4, "10": 5, "9": 6}
	if got, want := taskspec.SignalKeys(s), []string{"10", "9", "B", "a10", "a9", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SignalKeys = %q", got)
	}
	if got := taskspec.SignalKeys(validSpec()); got == nil || len(got) != 0 {
		t.Errorf("SignalKeys of no signals = %#v", got)
	}
}

type fakeGen struct{ lang taskspecv1.Language }

func (f fakeGen) Language() taskspecv1.Language { return f.lang }
func (f fakeGen) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := validSpec()
	s.Language = f.lang
	if d := opts.GetDifficulty(); d != 0 {
		s.Difficulty = d
	}
	return s, nil
}

func TestRegistry(t *testing.T) {
	var r taskspec.Registry // the zero value is usable
	// The messages are tests/contract/registry.json's: TestRegisterFollowsTheSharedTable.
	for _, l := range []taskspecv1.Language{3, 1, 2} {
		if err := r.Register(fakeGen{l}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(fakeGen{1}); err == nil || err.Error() != `taskspec: generator for language "go" already registered` {
		t.Errorf("duplicate = %v", err)
	}
	want := []taskspecv1.Language{1, 2, 3}
	if got := r.Languages(); !reflect.DeepEqual(got, want) {
		t.Errorf("Languages = %v", got)
	}
	if _, ok := taskspec.NewRegistry().Lookup(1); ok {
		t.Error("lookup in an empty registry succeeded")
	}
	g, ok := r.Lookup(2)
	if !ok {
		t.Fatal("python not found")
	}
	spec, err := g.Generate(context.Background(), &taskspecv1.GenerateOptions{Difficulty: 3})
	if err != nil || taskspec.Validate(spec) != nil || spec.Difficulty != 3 {
		t.Errorf("Generate = %v, %v", spec, err)
	}
}

func TestRegistryConcurrentUse(t *testing.T) {
	r := taskspec.NewRegistry()
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			l := taskspecv1.Language(i%3 + 1)
			errs <- r.Register(fakeGen{l})
			r.Lookup(l)
			r.Languages()
		}(i)
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err == nil {
			ok++
		}
	}
	if ok != 3 {
		t.Errorf("%d registrations succeeded, want 3", ok)
	}
}

func TestMarshalYAMLRefusesAStringThatIsNotUTF8(t *testing.T) {
	for path, edit := range map[string]func(*taskspecv1.TaskSpec){
		"prompt":                     func(s *taskspecv1.TaskSpec) { s.Prompt = "a\xffb" },
		"verification.test_cmd[1]":   func(s *taskspecv1.TaskSpec) { s.Verification.TestCmd = []string{"go", "\xc3"} },
		`difficulty_signals["\xfe"]`: func(s *taskspecv1.TaskSpec) { s.DifficultySignals = map[string]int64{"\xfe": 1} },
		"solution_artifacts[0].role": func(s *taskspecv1.TaskSpec) {
			s.SolutionArtifacts = []*taskspecv1.SolutionArtifact{{Path: "a", Role: "\x80"}}
		},
	} {
		spec := validSpec()
		edit(spec)
		out, err := taskspec.MarshalYAML(spec)
		want := "taskspec: marshal task spec: " + path + ": string is not valid UTF-8"
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %q, %v; want %s", path, out, err, want)
		}
		if err := taskspec.Save(filepath.Join(t.TempDir(), "taskspec.yaml"), spec); err == nil {
			t.Errorf("%s: Save wrote it", path)
		}
	}
}

// Of several keys that are not UTF-8, the error names the one that sorts
// first (in byte order), whatever order the map iterates in.
func TestMarshalYAMLNamesTheFirstKeyThatIsNotUTF8(t *testing.T) {
	spec := validSpec()
	spec.DifficultySignals = map[string]int64{"\xfe": 1, "ok": 2, "\xf0": 3, "\xff": 4, "z\xc3": 5}
	want := `taskspec: marshal task spec: difficulty_signals["z\xc3"]: string is not valid UTF-8`
	for range 50 {
		if _, err := taskspec.MarshalYAML(spec); err == nil || err.Error() != want {
			t.Fatalf("got %v; want %s", err, want)
		}
	}
}

func TestDecodeErrorLocatesAnUnknownKeyAndSuggestsTheField(t *testing.T) {
	doc := "task_spec_version: 1\ngenerated_from:\n    kindd: kg_template\n"
	_, err := taskspec.ParseYAML([]byte(doc))
	var de *taskspec.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("got %T %v", err, err)
	}
	if de.FieldPath != "generated_from.kindd" || de.Line != 3 || de.Column != 5 || de.Hint != `did you mean "kind"?` || de.Code != "TS001" {
		t.Errorf("got %+v", *de)
	}
	want := `taskspec: decode task spec: line 3, column 5: generated_from.kindd: unknown field "kindd" in generated_from; did you mean "kind"? (and 5 more problems)`
	if err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	var strict *taskspec.StrictError
	_, err = taskspec.ParseYAML([]byte("task_spec_version: 1.5\n"))
	if !errors.As(err, &de) || !errors.As(err, &strict) || de.FieldPath != "task_spec_version" || de.Line != 1 || de.Column != 20 {
		t.Errorf("a strict refusal: %+v", err)
	}
}
