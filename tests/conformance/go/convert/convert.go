// Package convert maps between eval.TaskSpec (the YAML-facing Go struct)
// and the generated protobuf message taskspecv1.TaskSpec.
//
// Enum strings map to enum values by their YAML spelling: "go" is
// LANGUAGE_GO, "" is LANGUAGE_UNSPECIFIED, and so on. The mapping is total
// and strict in both directions: a string with no enum value is an error
// going to proto, and an enum number with no string is an error coming
// back, so no value is ever silently replaced by UNSPECIFIED or "".
//
// Presence is kept where the YAML form can observe it: a nil KGQuery is an
// unset kg_query field and a non-nil (even empty) one is a set field.
// generated_from and verification are always set on the proto side because
// the YAML form always writes them.
package convert

import (
	"fmt"
	"math"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

var languageToProto = map[eval.Language]taskspecv1.Language{
	"":                      taskspecv1.Language_LANGUAGE_UNSPECIFIED,
	eval.LanguageGo:         taskspecv1.Language_LANGUAGE_GO,
	eval.LanguagePython:     taskspecv1.Language_LANGUAGE_PYTHON,
	eval.LanguageTypeScript: taskspecv1.Language_LANGUAGE_TYPESCRIPT,
}

var difficultyToProto = map[eval.Difficulty]taskspecv1.Difficulty{
	"":                    taskspecv1.Difficulty_DIFFICULTY_UNSPECIFIED,
	eval.DifficultyEasy:   taskspecv1.Difficulty_DIFFICULTY_EASY,
	eval.DifficultyMedium: taskspecv1.Difficulty_DIFFICULTY_MEDIUM,
	eval.DifficultyHard:   taskspecv1.Difficulty_DIFFICULTY_HARD,
}

var kindToProto = map[eval.GeneratedKind]taskspecv1.GeneratedKind{
	"":                     taskspecv1.GeneratedKind_GENERATED_KIND_UNSPECIFIED,
	eval.KindKGTemplate:    taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE,
	eval.KindBenchmarkSeed: taskspecv1.GeneratedKind_GENERATED_KIND_BENCHMARK_SEED,
}

var (
	languageFromProto   = invert(languageToProto)
	difficultyFromProto = invert(difficultyToProto)
	kindFromProto       = invert(kindToProto)
)

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// ToProto converts a spec to the generated message. It fails on a language,
// difficulty or generated_from.kind string that has no enum value (for
// example "cobol" or "Go"). It does not run Validate: a spec with an empty
// task_id converts fine.
func ToProto(s *eval.TaskSpec) (*taskspecv1.TaskSpec, error) {
	if s == nil {
		return nil, fmt.Errorf("convert: nil task spec")
	}
	lang, ok := languageToProto[s.Language]
	if !ok {
		return nil, fmt.Errorf("convert: unknown language %q", string(s.Language))
	}
	diff, ok := difficultyToProto[s.Difficulty]
	if !ok {
		return nil, fmt.Errorf("convert: unknown difficulty %q", string(s.Difficulty))
	}
	kind, ok := kindToProto[s.GeneratedFrom.Kind]
	if !ok {
		return nil, fmt.Errorf("convert: unknown generated_from.kind %q", string(s.GeneratedFrom.Kind))
	}
	m := &taskspecv1.TaskSpec{
		TaskSpecVersion: int64(s.TaskSpecVersion),
		TaskId:          s.TaskID,
		Language:        lang,
		Difficulty:      diff,
		GeneratedFrom: &taskspecv1.GeneratedFrom{
			Kind:       kind,
			TemplateId: s.GeneratedFrom.TemplateID,
		},
		Prompt: s.Prompt,
		Verification: &taskspecv1.Verification{
			BuildCmd:       cloneStrings(s.Verification.BuildCmd),
			TestCmd:        cloneStrings(s.Verification.TestCmd),
			TimeoutSeconds: int64(s.Verification.TimeoutSeconds),
		},
	}
	if q := s.GeneratedFrom.KGQuery; q != nil {
		m.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	if len(s.DifficultySignals) > 0 {
		m.DifficultySignals = make(map[string]int64, len(s.DifficultySignals))
		for k, v := range s.DifficultySignals {
			m.DifficultySignals[k] = int64(v)
		}
	}
	if len(s.SolutionArtifacts) > 0 {
		m.SolutionArtifacts = make([]*taskspecv1.SolutionArtifact, len(s.SolutionArtifacts))
		for i, a := range s.SolutionArtifacts {
			m.SolutionArtifacts[i] = &taskspecv1.SolutionArtifact{Path: a.Path, Role: a.Role}
		}
	}
	return m, nil
}

// FromProto converts the generated message back to a spec. It fails on an
// enum number with no YAML spelling (an open proto3 enum can carry any
// int32). Unset generated_from and verification messages become zero
// structs; an unset kg_query becomes nil; empty repeated and map fields
// become nil so that they are omitted from YAML like the Go struct's zero
// value.
func FromProto(m *taskspecv1.TaskSpec) (*eval.TaskSpec, error) {
	if m == nil {
		return nil, fmt.Errorf("convert: nil message")
	}
	lang, ok := languageFromProto[m.GetLanguage()]
	if !ok {
		return nil, fmt.Errorf("convert: unknown Language enum number %d", int32(m.GetLanguage()))
	}
	diff, ok := difficultyFromProto[m.GetDifficulty()]
	if !ok {
		return nil, fmt.Errorf("convert: unknown Difficulty enum number %d", int32(m.GetDifficulty()))
	}
	gf := m.GetGeneratedFrom()
	kind, ok := kindFromProto[gf.GetKind()]
	if !ok {
		return nil, fmt.Errorf("convert: unknown GeneratedKind enum number %d", int32(gf.GetKind()))
	}
	version, err := toInt("task_spec_version", m.GetTaskSpecVersion())
	if err != nil {
		return nil, err
	}
	timeout, err := toInt("verification.timeout_seconds", m.GetVerification().GetTimeoutSeconds())
	if err != nil {
		return nil, err
	}
	s := &eval.TaskSpec{
		TaskSpecVersion: version,
		TaskID:          m.GetTaskId(),
		Language:        lang,
		Difficulty:      diff,
		GeneratedFrom: eval.GeneratedFrom{
			Kind:       kind,
			TemplateID: gf.GetTemplateId(),
		},
		Prompt: m.GetPrompt(),
		Verification: eval.Verification{
			BuildCmd:       cloneStrings(m.GetVerification().GetBuildCmd()),
			TestCmd:        cloneStrings(m.GetVerification().GetTestCmd()),
			TimeoutSeconds: timeout,
		},
	}
	if q := gf.GetKgQuery(); q != nil {
		s.GeneratedFrom.KGQuery = &eval.KGQuery{Intent: q.GetIntent(), SeedSymbol: q.GetSeedSymbol()}
	}
	if sig := m.GetDifficultySignals(); len(sig) > 0 {
		s.DifficultySignals = make(map[string]int, len(sig))
		for k, v := range sig {
			n, err := toInt("difficulty_signals["+k+"]", v)
			if err != nil {
				return nil, err
			}
			s.DifficultySignals[k] = n
		}
	}
	if arts := m.GetSolutionArtifacts(); len(arts) > 0 {
		s.SolutionArtifacts = make([]eval.SolutionArtifact, len(arts))
		for i, a := range arts {
			s.SolutionArtifacts[i] = eval.SolutionArtifact{Path: a.GetPath(), Role: a.GetRole()}
		}
	}
	return s, nil
}

// toInt narrows an int64 to the Go struct's int. It can only fail where int
// is 32 bits wide.
func toInt(field string, v int64) (int, error) {
	if v < math.MinInt || v > math.MaxInt {
		return 0, fmt.Errorf("convert: %s %d overflows int", field, v)
	}
	return int(v), nil
}

func cloneStrings(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	return append([]string(nil), in...)
}
