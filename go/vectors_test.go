package taskspec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// The conformance vectors are the Go package's recorded answers
// (tests/conformance/vectors, written by tests/conformance/generate.py).
// The Python library's tests hold it to the same files, so passing here
// means both libraries agree with the Go package, and with each other.
const vectorsDir = "../tests/conformance/vectors"

type specJSON struct {
	TaskSpecVersion   int64            `json:"task_spec_version"`
	TaskID            string           `json:"task_id"`
	Language          string           `json:"language"`
	Difficulty        string           `json:"difficulty"`
	DifficultySignals map[string]int64 `json:"difficulty_signals"`
	GeneratedFrom     struct {
		Kind       string `json:"kind"`
		TemplateID string `json:"template_id"`
		KGQuery    *struct {
			Intent     string `json:"intent"`
			SeedSymbol string `json:"seed_symbol"`
		} `json:"kg_query"`
	} `json:"generated_from"`
	Prompt            string `json:"prompt"`
	SolutionArtifacts []struct {
		Path string `json:"path"`
		Role string `json:"role"`
	} `json:"solution_artifacts"`
	Verification struct {
		BuildCmd       []string `json:"build_cmd"`
		TestCmd        []string `json:"test_cmd"`
		TimeoutSeconds int64    `json:"timeout_seconds"`
	} `json:"verification"`
}

type vector struct {
	kind, name string
	data       []byte
	Note       string    `json:"note"`
	File       string    `json:"file"`
	Spec       *specJSON `json:"spec"`
	GoYAML     *string   `json:"go_yaml"`
	GoRoundOK  *bool     `json:"go_roundtrip_ok"`
	GoStage    string    `json:"go_stage"`
	GoError    string    `json:"go_error"`
	GoParseErr string    `json:"go_parse_error"`
	GoParse    *specJSON `json:"go_parse_spec"`
}

func loadVectors(t testing.TB, kind string) []vector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorsDir, kind, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct{ Cases []vector }
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	for i := range manifest.Cases {
		v := &manifest.Cases[i]
		v.kind = kind
		v.name = kind + "/" + strings.TrimSuffix(v.File, ".yaml")
		if v.data, err = os.ReadFile(filepath.Join(vectorsDir, kind, v.File)); err != nil {
			t.Fatal(err)
		}
	}
	if len(manifest.Cases) == 0 {
		t.Fatalf("no %s vectors", kind)
	}
	return manifest.Cases
}

// stricter lists the vectors the Go package accepts (or rejects only in
// Validate) and both libraries reject on purpose.
// A refusal is one entry of stricter.json: the exact StrictError both
// libraries give for a vector.
type refusal struct {
	Rule      string `json:"rule"`
	FieldPath string `json:"field_path"`
	Line      int    `json:"line"`
	Reason    string `json:"reason"`
}

// stricter reads stricter.json: the vectors both libraries refuse on
// purpose where the Go package accepts them (or rejects them only in
// Validate), and the vectors refused first by a shared budget.
func stricter(t testing.TB) (cases, budgets map[string]refusal) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorsDir, "..", "stricter.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Vectors, Budgets map[string]refusal }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Vectors) == 0 || len(doc.Budgets) == 0 {
		t.Fatal("stricter.json: empty tables")
	}
	return doc.Vectors, doc.Budgets
}

// checkRefusal reports how err differs from the listed refusal.
func checkRefusal(t *testing.T, name string, err error, want refusal) {
	t.Helper()
	var strict *taskspec.StrictError
	if !errors.As(err, &strict) {
		t.Errorf("%s (%s): want a *StrictError, got %v", name, want.Rule, err)
		return
	}
	got := refusal{Rule: want.Rule, FieldPath: strict.FieldPath, Line: strict.Line, Reason: strict.Reason}
	if got != want {
		t.Errorf("%s: refused with\n  %+v\nwant\n  %+v", name, got, want)
	}
}

func enumOrFail[E any](t testing.TB, parse func(string) (E, error), s string) E {
	t.Helper()
	var zero E
	if s == "" {
		return zero
	}
	e, err := parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func (s *specJSON) proto(t testing.TB) *taskspecv1.TaskSpec {
	t.Helper()
	m := &taskspecv1.TaskSpec{
		TaskSpecVersion: s.TaskSpecVersion,
		TaskId:          s.TaskID,
		Language:        enumOrFail(t, taskspec.ParseLanguage, s.Language),
		Difficulty:      enumOrFail(t, taskspec.ParseDifficulty, s.Difficulty),
		GeneratedFrom: &taskspecv1.GeneratedFrom{
			Kind:       enumOrFail(t, taskspec.ParseGeneratedKind, s.GeneratedFrom.Kind),
			TemplateId: s.GeneratedFrom.TemplateID,
		},
		Prompt: s.Prompt,
		Verification: &taskspecv1.Verification{
			BuildCmd:       s.Verification.BuildCmd,
			TestCmd:        s.Verification.TestCmd,
			TimeoutSeconds: s.Verification.TimeoutSeconds,
		},
	}
	if len(s.DifficultySignals) > 0 {
		m.DifficultySignals = s.DifficultySignals
	}
	if q := s.GeneratedFrom.KGQuery; q != nil {
		m.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	for _, a := range s.SolutionArtifacts {
		m.SolutionArtifacts = append(m.SolutionArtifacts, &taskspecv1.SolutionArtifact{Path: a.Path, Role: a.Role})
	}
	return m
}

func TestCanonicalVectorsParseToTheRecordedSpecAndMarshalByteForByte(t *testing.T) {
	vs := loadVectors(t, "canonical")
	for _, v := range vs {
		spec, err := taskspec.ParseYAML(v.data)
		if err != nil {
			t.Errorf("%s (%s): %v", v.name, v.Note, err)
			continue
		}
		if want := v.Spec.proto(t); !proto.Equal(spec, want) {
			t.Errorf("%s: decoded %v, want %v", v.name, spec, want)
		}
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			t.Errorf("%s: MarshalYAML: %v", v.name, err)
		} else if !bytes.Equal(out, v.data) {
			t.Errorf("%s: MarshalYAML differs\n got %q\nwant %q", v.name, out, v.data)
		}
	}
	if len(vs) < 300 {
		t.Errorf("only %d canonical vectors", len(vs))
	}
}

func TestAcceptedVectorsDecodeToTheRecordedSpec(t *testing.T) {
	listed, _ := stricter(t)
	for _, v := range loadVectors(t, "accepted") {
		spec, err := taskspec.ParseYAML(v.data)
		if want, ok := listed[v.name]; ok {
			checkRefusal(t, v.name, err, want)
			continue
		}
		if err != nil {
			t.Errorf("%s (%s): %v", v.name, v.Note, err)
			continue
		}
		if want := v.Spec.proto(t); !proto.Equal(spec, want) {
			t.Errorf("%s: decoded %v, want %v", v.name, spec, want)
		}
		if !*v.GoRoundOK {
			continue // the Go package's re-marshal hits a yaml.v3 bug, which is not copied
		}
		out, err := taskspec.MarshalYAML(spec)
		if err != nil || string(out) != *v.GoYAML {
			t.Errorf("%s: MarshalYAML = %q, %v\nwant %q", v.name, out, err, *v.GoYAML)
		}
	}
}

// runtimePhrases are the words of yaml.v3 and Go's types that must never
// reach a message: the contract's words come from its catalogue.
var runtimePhrases = []string{"unmarshal errors", "not found in type", "eval.TaskSpec", "cannot unmarshal", "yaml: line", "yaml: "}

// TestRejectedVectorsAreRejectedWithTheGoPackagesMessage holds a refusal
// at the validate stage to the Go package's exact words after this
// package's prefix, and one at the decode stage to this package's prefix,
// with the catalogue's words and none of yaml.v3's.
func TestRejectedVectorsAreRejectedWithTheGoPackagesMessage(t *testing.T) {
	listed, budgets := stricter(t)
	for _, v := range loadVectors(t, "rejected") {
		spec, err := taskspec.ParseYAML(v.data)
		if err == nil {
			t.Errorf("%s (%s): accepted as %v; Go: %s", v.name, v.Note, spec, v.GoError)
			continue
		}
		if spec != nil {
			t.Errorf("%s: spec returned with an error", v.name)
		}
		if want, ok := listed[v.name]; ok {
			checkRefusal(t, v.name, err, want)
			continue
		}
		if want, ok := budgets[v.name]; ok {
			checkRefusal(t, v.name, err, want)
			continue
		}
		if v.GoStage == "validate" {
			// The Go package's words after this package's prefix, then the
			// count of the other problems.
			var verr *taskspec.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("%s: %T %v", v.name, err, err)
			}
			want, ok := strings.CutPrefix(v.GoError, "eval: ")
			want = "taskspec: " + want + moreProblems(len(verr.Violations)-1)
			if !ok || err.Error() != want {
				t.Errorf("%s (%s):\n got %q\nwant %q (Go: %q)", v.name, v.Note, err.Error(), want, v.GoError)
			}
		}
		if v.GoStage != "validate" {
			if !strings.HasPrefix(err.Error(), "taskspec: decode task spec: ") {
				t.Errorf("%s (%s): %q lacks the Go package's prefix", v.name, v.Note, err)
			}
			for _, phrase := range runtimePhrases {
				if strings.Contains(strings.TrimPrefix(err.Error(), "taskspec: decode task spec: "), phrase) {
					t.Errorf("%s (%s): %q holds yaml.v3's %q", v.name, v.Note, err, phrase)
				}
			}
			var de *taskspec.DecodeError
			if !errors.As(err, &de) || de.Code == "" || len(de.Violations) == 0 {
				t.Errorf("%s: %T %+v has no code or problems", v.name, err, err)
			}
		}
		// A refusal at the decode stage is a DecodeError (which a rule the
		// document also breaks makes a ValidationError too); one at the
		// validate stage is a ValidationError alone.
		var de *taskspec.DecodeError
		if (v.GoStage == "validate") == errors.As(err, &de) {
			t.Errorf("%s: stage %s, error %T", v.name, v.GoStage, err)
		}
	}
}

func TestYAMLv3BugSpecsAreWrittenSoThatTheyReadBack(t *testing.T) {
	for _, v := range loadVectors(t, "roundtrip_bugs") {
		spec := v.Spec.proto(t)
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			t.Errorf("%s: %v", v.name, err)
			continue
		}
		if bytes.Equal(out, v.data) {
			t.Errorf("%s: copies yaml.v3's unreadable bytes", v.name)
		}
		back, err := taskspec.ParseYAML(out)
		if err != nil || !proto.Equal(back, spec) {
			t.Errorf("%s (%s): %q reads back as %v, %v", v.name, v.Note, out, back, err)
		}
		got, err := taskspec.ParseYAML(v.data)
		switch {
		case v.GoParseErr != "" && err == nil:
			t.Errorf("%s: accepts yaml.v3's bytes; Go: %s", v.name, v.GoParseErr)
		case v.GoParseErr == "" && err != nil:
			t.Errorf("%s: rejects yaml.v3's bytes, which Go reads: %v", v.name, err)
		case v.GoParseErr == "" && !proto.Equal(got, v.GoParse.proto(t)):
			t.Errorf("%s: reads yaml.v3's bytes as %v", v.name, got)
		}
	}
}
