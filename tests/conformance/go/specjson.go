package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

// specJSON is the JSON form of an eval.TaskSpec used on the serve protocol.
// Keys are exactly the canonical YAML keys. Integers are Go ints (64 bits on
// the supported platforms), which encoding/json reads and writes exactly,
// so int64 extremes survive the trip.
type specJSON struct {
	TaskSpecVersion   int               `json:"task_spec_version"`
	TaskID            string            `json:"task_id"`
	Language          string            `json:"language"`
	Difficulty        string            `json:"difficulty"`
	DifficultySignals map[string]int    `json:"difficulty_signals"`
	GeneratedFrom     generatedFromJSON `json:"generated_from"`
	Prompt            string            `json:"prompt"`
	SolutionArtifacts []artifactJSON    `json:"solution_artifacts"`
	Verification      verificationJSON  `json:"verification"`
}

type generatedFromJSON struct {
	Kind       string       `json:"kind"`
	TemplateID string       `json:"template_id"`
	KGQuery    *kgQueryJSON `json:"kg_query"`
}

type kgQueryJSON struct {
	Intent     string `json:"intent"`
	SeedSymbol string `json:"seed_symbol"`
}

type artifactJSON struct {
	Path string `json:"path"`
	Role string `json:"role"`
}

type verificationJSON struct {
	BuildCmd       []string `json:"build_cmd"`
	TestCmd        []string `json:"test_cmd"`
	TimeoutSeconds int      `json:"timeout_seconds"`
}

// toSpecJSON converts for output: every key is present, kg_query is null
// when nil, and lists and maps are [] and {} when empty.
func toSpecJSON(s *eval.TaskSpec) *specJSON {
	out := &specJSON{
		TaskSpecVersion:   s.TaskSpecVersion,
		TaskID:            s.TaskID,
		Language:          string(s.Language),
		Difficulty:        string(s.Difficulty),
		DifficultySignals: make(map[string]int, len(s.DifficultySignals)),
		GeneratedFrom: generatedFromJSON{
			Kind:       string(s.GeneratedFrom.Kind),
			TemplateID: s.GeneratedFrom.TemplateID,
		},
		Prompt:            s.Prompt,
		SolutionArtifacts: make([]artifactJSON, 0, len(s.SolutionArtifacts)),
		Verification: verificationJSON{
			BuildCmd:       append(make([]string, 0, len(s.Verification.BuildCmd)), s.Verification.BuildCmd...),
			TestCmd:        append(make([]string, 0, len(s.Verification.TestCmd)), s.Verification.TestCmd...),
			TimeoutSeconds: s.Verification.TimeoutSeconds,
		},
	}
	for k, v := range s.DifficultySignals {
		out.DifficultySignals[k] = v
	}
	if q := s.GeneratedFrom.KGQuery; q != nil {
		out.GeneratedFrom.KGQuery = &kgQueryJSON{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	for _, a := range s.SolutionArtifacts {
		out.SolutionArtifacts = append(out.SolutionArtifacts, artifactJSON(a))
	}
	return out
}

// parseSpecJSON reads a SPEC object strictly: unknown keys and trailing
// data are errors. Missing keys take their zero value, and null or missing
// kg_query means nil. Empty lists and maps become nil, which is how the
// YAML decoder leaves fields it never saw.
func parseSpecJSON(raw json.RawMessage) (*eval.TaskSpec, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("missing spec")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in specJSON
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("spec: trailing data")
	}
	s := &eval.TaskSpec{
		TaskSpecVersion: in.TaskSpecVersion,
		TaskID:          in.TaskID,
		Language:        eval.Language(in.Language),
		Difficulty:      eval.Difficulty(in.Difficulty),
		GeneratedFrom: eval.GeneratedFrom{
			Kind:       eval.GeneratedKind(in.GeneratedFrom.Kind),
			TemplateID: in.GeneratedFrom.TemplateID,
		},
		Prompt: in.Prompt,
		Verification: eval.Verification{
			BuildCmd:       in.Verification.BuildCmd,
			TestCmd:        in.Verification.TestCmd,
			TimeoutSeconds: in.Verification.TimeoutSeconds,
		},
	}
	if len(in.DifficultySignals) > 0 {
		s.DifficultySignals = in.DifficultySignals
	}
	if q := in.GeneratedFrom.KGQuery; q != nil {
		s.GeneratedFrom.KGQuery = &eval.KGQuery{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	for _, a := range in.SolutionArtifacts {
		s.SolutionArtifacts = append(s.SolutionArtifacts, eval.SolutionArtifact(a))
	}
	normalize(s)
	return s, nil
}

// normalize replaces empty slices and maps with nil, in place, so that
// reflect.DeepEqual compares meaning rather than allocation.
func normalize(s *eval.TaskSpec) {
	if len(s.DifficultySignals) == 0 {
		s.DifficultySignals = nil
	}
	if len(s.SolutionArtifacts) == 0 {
		s.SolutionArtifacts = nil
	}
	if len(s.Verification.BuildCmd) == 0 {
		s.Verification.BuildCmd = nil
	}
	if len(s.Verification.TestCmd) == 0 {
		s.Verification.TestCmd = nil
	}
}

// protoFromSpecJSON builds the generated message from a SPEC object. The
// enum spellings come from the taskspec library, so this is field copying,
// not a second converter: a spelling the library does not know ("cobol")
// is the library's error.
func protoFromSpecJSON(raw json.RawMessage) (*taskspecv1.TaskSpec, error) {
	s, err := parseSpecJSON(raw)
	if err != nil {
		return nil, err
	}
	enum := func(text string, parse func(string) (int32, error)) (int32, error) {
		if text == "" {
			return 0, nil // UNSPECIFIED, Go's zero value
		}
		return parse(text)
	}
	lang, err := enum(string(s.Language), func(t string) (int32, error) {
		v, err := taskspec.ParseLanguage(t)
		return int32(v), err
	})
	if err != nil {
		return nil, err
	}
	diff, err := enum(string(s.Difficulty), func(t string) (int32, error) {
		v, err := taskspec.ParseDifficulty(t)
		return int32(v), err
	})
	if err != nil {
		return nil, err
	}
	kind, err := enum(string(s.GeneratedFrom.Kind), func(t string) (int32, error) {
		v, err := taskspec.ParseGeneratedKind(t)
		return int32(v), err
	})
	if err != nil {
		return nil, err
	}
	m := &taskspecv1.TaskSpec{
		TaskSpecVersion: int64(s.TaskSpecVersion),
		TaskId:          s.TaskID,
		Language:        taskspecv1.Language(lang),
		Difficulty:      taskspecv1.Difficulty(diff),
		GeneratedFrom: &taskspecv1.GeneratedFrom{
			Kind:       taskspecv1.GeneratedKind(kind),
			TemplateId: s.GeneratedFrom.TemplateID,
		},
		Prompt: s.Prompt,
		Verification: &taskspecv1.Verification{
			BuildCmd:       s.Verification.BuildCmd,
			TestCmd:        s.Verification.TestCmd,
			TimeoutSeconds: int64(s.Verification.TimeoutSeconds),
		},
	}
	if q := s.GeneratedFrom.KGQuery; q != nil {
		m.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	for k, v := range s.DifficultySignals {
		if m.DifficultySignals == nil {
			m.DifficultySignals = make(map[string]int64, len(s.DifficultySignals))
		}
		m.DifficultySignals[k] = int64(v)
	}
	for _, a := range s.SolutionArtifacts {
		m.SolutionArtifacts = append(m.SolutionArtifacts, &taskspecv1.SolutionArtifact{Path: a.Path, Role: a.Role})
	}
	return m, nil
}
