package main

import (
	"bytes"
	"encoding/json"
	"fmt"

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
