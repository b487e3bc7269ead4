package convert

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

func goldenSpecs(t *testing.T) map[string]*eval.TaskSpec {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "eval", "testdata", "*.yaml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("golden vectors: %v (%d files)", err, len(files))
	}
	out := make(map[string]*eval.TaskSpec)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := eval.ParseTaskSpec(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = s
	}
	return out
}

func specCases(t *testing.T) map[string]*eval.TaskSpec {
	cases := goldenSpecs(t)
	cases["zero"] = &eval.TaskSpec{}
	cases["empty kg_query and artifact"] = &eval.TaskSpec{
		TaskSpecVersion:   -9223372036854775808,
		Language:          eval.LanguageTypeScript,
		Difficulty:        eval.DifficultyHard,
		DifficultySignals: map[string]int{"<<": 9223372036854775807, "": -1, "z": 0},
		GeneratedFrom:     eval.GeneratedFrom{Kind: eval.KindBenchmarkSeed, KGQuery: &eval.KGQuery{}},
		SolutionArtifacts: []eval.SolutionArtifact{{}, {Path: "a", Role: "r"}},
		Verification:      eval.Verification{TestCmd: []string{""}, TimeoutSeconds: -5},
	}
	cases["python easy"] = &eval.TaskSpec{
		TaskSpecVersion: 1, TaskID: "😀", Language: eval.LanguagePython, Difficulty: eval.DifficultyEasy,
		GeneratedFrom: eval.GeneratedFrom{Kind: eval.KindKGTemplate, KGQuery: &eval.KGQuery{SeedSymbol: "x"}},
		Prompt:        "\n\tp\n",
	}
	return cases
}

func TestRoundTripThroughWire(t *testing.T) {
	for name, spec := range specCases(t) {
		t.Run(name, func(t *testing.T) {
			msg, err := ToProto(spec)
			if err != nil {
				t.Fatal(err)
			}
			if msg.GetGeneratedFrom() == nil || msg.GetVerification() == nil {
				t.Error("generated_from and verification must always be set")
			}
			if (spec.GeneratedFrom.KGQuery == nil) != (msg.GetGeneratedFrom().GetKgQuery() == nil) {
				t.Error("kg_query presence not preserved going to proto")
			}
			bin, err := proto.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			js, err := protojson.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			for enc, decode := range map[string]func(*taskspecv1.TaskSpec) error{
				"binary": func(m *taskspecv1.TaskSpec) error { return proto.Unmarshal(bin, m) },
				"json":   func(m *taskspecv1.TaskSpec) error { return protojson.Unmarshal(js, m) },
			} {
				var m taskspecv1.TaskSpec
				if err := decode(&m); err != nil {
					t.Fatalf("%s: %v", enc, err)
				}
				back, err := FromProto(&m)
				if err != nil {
					t.Fatalf("%s: %v", enc, err)
				}
				if !reflect.DeepEqual(back, spec) {
					t.Errorf("%s round trip:\n got %#v\nwant %#v", enc, back, spec)
				}
			}
		})
	}
}

func TestEnumMapping(t *testing.T) {
	spec := &eval.TaskSpec{Language: "go", Difficulty: "medium", GeneratedFrom: eval.GeneratedFrom{Kind: "kg_template"}}
	msg, err := ToProto(spec)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Language != taskspecv1.Language_LANGUAGE_GO || msg.Difficulty != taskspecv1.Difficulty_DIFFICULTY_MEDIUM ||
		msg.GeneratedFrom.Kind != taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE {
		t.Errorf("enums: %v %v %v", msg.Language, msg.Difficulty, msg.GeneratedFrom.Kind)
	}
	msg, err = ToProto(&eval.TaskSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Language != 0 || msg.Difficulty != 0 || msg.GeneratedFrom.Kind != 0 {
		t.Errorf("empty strings should map to UNSPECIFIED: %v", msg)
	}
	// Every generated enum value has a spelling, and it is the lower-case
	// suffix of the value name.
	for num, name := range taskspecv1.Language_name {
		s, ok := languageFromProto[taskspecv1.Language(num)]
		if !ok || (num != 0 && strings.ToUpper("LANGUAGE_"+string(s)) != name) {
			t.Errorf("language %d %s -> %q", num, name, s)
		}
	}
	for num, name := range taskspecv1.Difficulty_name {
		s, ok := difficultyFromProto[taskspecv1.Difficulty(num)]
		if !ok || (num != 0 && strings.ToUpper("DIFFICULTY_"+string(s)) != name) {
			t.Errorf("difficulty %d %s -> %q", num, name, s)
		}
	}
	for num, name := range taskspecv1.GeneratedKind_name {
		s, ok := kindFromProto[taskspecv1.GeneratedKind(num)]
		if !ok || (num != 0 && strings.ToUpper("GENERATED_KIND_"+string(s)) != name) {
			t.Errorf("kind %d %s -> %q", num, name, s)
		}
	}
}

func TestUnknownValuesAreErrors(t *testing.T) {
	toCases := []struct {
		spec *eval.TaskSpec
		want string
	}{
		{&eval.TaskSpec{Language: "cobol"}, `convert: unknown language "cobol"`},
		{&eval.TaskSpec{Language: "Go"}, `convert: unknown language "Go"`},
		{&eval.TaskSpec{Difficulty: "extreme"}, `convert: unknown difficulty "extreme"`},
		{&eval.TaskSpec{GeneratedFrom: eval.GeneratedFrom{Kind: "manual"}}, `convert: unknown generated_from.kind "manual"`},
		{nil, "convert: nil task spec"},
	}
	for _, tc := range toCases {
		if _, err := ToProto(tc.spec); err == nil || err.Error() != tc.want {
			t.Errorf("ToProto = %v, want %q", err, tc.want)
		}
	}
	fromCases := []struct {
		msg  *taskspecv1.TaskSpec
		want string
	}{
		{&taskspecv1.TaskSpec{Language: 7}, "convert: unknown Language enum number 7"},
		{&taskspecv1.TaskSpec{Difficulty: -1}, "convert: unknown Difficulty enum number -1"},
		{&taskspecv1.TaskSpec{GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: 3}}, "convert: unknown GeneratedKind enum number 3"},
		{nil, "convert: nil message"},
	}
	for _, tc := range fromCases {
		if _, err := FromProto(tc.msg); err == nil || err.Error() != tc.want {
			t.Errorf("FromProto = %v, want %q", err, tc.want)
		}
	}
}

func TestFromProtoUnsetMessages(t *testing.T) {
	got, err := FromProto(&taskspecv1.TaskSpec{
		DifficultySignals: map[string]int64{},
		Verification:      &taskspecv1.Verification{BuildCmd: []string{}, TestCmd: []string{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, &eval.TaskSpec{}) {
		t.Errorf("got %#v, want zero spec", got)
	}
}
