package taskspec

import (
	"fmt"
	"math"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// An EnumError reports an enum number the schema does not define, found
// where the spec must be written as YAML. An open proto3 enum can carry any
// int32, but YAML carries only spellings, so writing such a value would lose
// it; the Python library refuses it the same way.
type EnumError struct {
	FieldPath string // "language", "difficulty" or "generated_from.kind"
	Enum      string // the enum's full name, e.g. "taskspec.v1.Language"
	Number    int32
}

func (e *EnumError) Error() string {
	return fmt.Sprintf("%s%s: enum value %d is not defined in %s and cannot be written as YAML",
		errPrefix, e.FieldPath, e.Number, e.Enum)
}

// toMirror converts a message to the YAML shape. Empty repeated and map
// fields become nil, so that omitempty drops them as it drops the Go
// package's zero values; an unset kg_query stays nil and a set one, even
// empty, is kept, because YAML writes the latter as {}.
func toMirror(m *taskspecv1.TaskSpec) (*eval.TaskSpec, error) {
	lang, ok := LanguageString(m.GetLanguage())
	if !ok {
		return nil, &EnumError{"language", "taskspec.v1.Language", int32(m.GetLanguage())}
	}
	diff, ok := DifficultyString(m.GetDifficulty())
	if !ok {
		return nil, &EnumError{"difficulty", "taskspec.v1.Difficulty", int32(m.GetDifficulty())}
	}
	gf := m.GetGeneratedFrom()
	kind, ok := GeneratedKindString(gf.GetKind())
	if !ok {
		return nil, &EnumError{"generated_from.kind", "taskspec.v1.GeneratedKind", int32(gf.GetKind())}
	}
	version, err := toInt("task_spec_version", m.GetTaskSpecVersion())
	if err != nil {
		return nil, err
	}
	v := m.GetVerification()
	timeout, err := toInt("verification.timeout_seconds", v.GetTimeoutSeconds())
	if err != nil {
		return nil, err
	}
	s := &eval.TaskSpec{
		TaskSpecVersion: version,
		TaskID:          m.GetTaskId(),
		Language:        eval.Language(lang),
		Difficulty:      eval.Difficulty(diff),
		GeneratedFrom:   eval.GeneratedFrom{Kind: eval.GeneratedKind(kind), TemplateID: gf.GetTemplateId()},
		Prompt:          m.GetPrompt(),
		Verification: eval.Verification{
			BuildCmd:       nilIfEmpty(v.GetBuildCmd()),
			TestCmd:        nilIfEmpty(v.GetTestCmd()),
			TimeoutSeconds: timeout,
		},
	}
	if q := gf.GetKgQuery(); q != nil {
		s.GeneratedFrom.KGQuery = &eval.KGQuery{Intent: q.GetIntent(), SeedSymbol: q.GetSeedSymbol()}
	}
	if sig := m.GetDifficultySignals(); len(sig) > 0 {
		s.DifficultySignals = make(map[string]int, len(sig))
		for k, n := range sig {
			i, err := toInt("difficulty_signals["+k+"]", n)
			if err != nil {
				return nil, err
			}
			s.DifficultySignals[k] = i
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

// fromMirror converts a decoded document to the message. The enum text must
// already be known to spell a value (Validate ran, or the caller checked).
// generated_from and verification are always set, because the YAML form
// always writes them; this is also what the Python library decodes.
func fromMirror(s *eval.TaskSpec) (*taskspecv1.TaskSpec, error) {
	lang, ok := languageEnum.fromTxt[string(s.Language)]
	if !ok {
		return nil, enumTextError(languageEnum.path, string(s.Language))
	}
	diff, ok := difficultyEnum.fromTxt[string(s.Difficulty)]
	if !ok {
		return nil, enumTextError(difficultyEnum.path, string(s.Difficulty))
	}
	kind, ok := generatedKindEnum.fromTxt[string(s.GeneratedFrom.Kind)]
	if !ok {
		return nil, enumTextError(generatedKindEnum.path, string(s.GeneratedFrom.Kind))
	}
	m := &taskspecv1.TaskSpec{
		TaskSpecVersion: int64(s.TaskSpecVersion),
		TaskId:          s.TaskID,
		Language:        lang,
		Difficulty:      diff,
		GeneratedFrom:   &taskspecv1.GeneratedFrom{Kind: kind, TemplateId: s.GeneratedFrom.TemplateID},
		Prompt:          s.Prompt,
		Verification: &taskspecv1.Verification{
			BuildCmd:       nilIfEmpty(s.Verification.BuildCmd),
			TestCmd:        nilIfEmpty(s.Verification.TestCmd),
			TimeoutSeconds: int64(s.Verification.TimeoutSeconds),
		},
	}
	if q := s.GeneratedFrom.KGQuery; q != nil {
		m.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: q.Intent, SeedSymbol: q.SeedSymbol}
	}
	if len(s.DifficultySignals) > 0 {
		m.DifficultySignals = make(map[string]int64, len(s.DifficultySignals))
		for k, n := range s.DifficultySignals {
			m.DifficultySignals[k] = int64(n)
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

func enumTextError(path, text string) error {
	return &ValidationError{Violations: []Violation{{
		FieldPath: path, Message: fmt.Sprintf("invalid %s %q", path, text),
	}}}
}

// toInt narrows an int64 to the YAML shape's int. It can only fail where
// int is 32 bits wide.
func toInt(field string, v int64) (int, error) {
	if v < math.MinInt || v > math.MaxInt {
		return 0, fmt.Errorf("%s%s: %d does not fit in int on this platform", errPrefix, field, v)
	}
	return int(v), nil
}

func nilIfEmpty(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	return append([]string(nil), in...)
}
