package eval

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// CurrentTaskSpecVersion is the TaskSpec schema version this build produces.
// v1 is the initial schema. Validate rejects every other value, 0 included,
// so a reader never silently misreads a document written for another
// version.
const CurrentTaskSpecVersion = 1

// Language identifies the programming language a task targets. The v1
// harness covers Go, Python and TypeScript; the type is a string so that a
// future language is an additive constant, not a breaking change.
type Language string

// Supported v1 languages.
const (
	LanguageGo         Language = "go"
	LanguagePython     Language = "python"
	LanguageTypeScript Language = "typescript"
)

// Valid reports whether l is a recognized v1 language. The comparison is
// exact (case-sensitive) because the value is also the YAML spelling, and
// two spellings of one language would make sidecars ambiguous.
func (l Language) Valid() bool {
	switch l {
	case LanguageGo, LanguagePython, LanguageTypeScript:
		return true
	}
	return false
}

// Difficulty is the reproducible, knowledge-graph-derived difficulty band
// of a task. The band is computed downstream from difficulty signals (node
// and edge counts, a cyclomatic-complexity proxy) so that re-running the
// generator on the same graph state yields the same band.
type Difficulty string

// Difficulty bands.
const (
	DifficultyEasy   Difficulty = "easy"
	DifficultyMedium Difficulty = "medium"
	DifficultyHard   Difficulty = "hard"
)

// Valid reports whether d is a recognized difficulty band. The empty value
// is not a band: it only means "let the generator choose" in
// GenerateOptions, never in a TaskSpec.
func (d Difficulty) Valid() bool {
	switch d {
	case DifficultyEasy, DifficultyMedium, DifficultyHard:
		return true
	}
	return false
}

// GeneratedKind names the provenance of a task. v1 generates from the
// knowledge graph (KindKGTemplate); KindBenchmarkSeed is reserved for the
// benchmark-seed adapter that emits the same TaskSpec shape.
type GeneratedKind string

// Generation provenance kinds.
const (
	KindKGTemplate    GeneratedKind = "kg_template"
	KindBenchmarkSeed GeneratedKind = "benchmark_seed"
)

// Valid reports whether k is a recognized generation kind, so that a run's
// provenance is always one the harness knows how to reproduce.
func (k GeneratedKind) Valid() bool {
	switch k {
	case KindKGTemplate, KindBenchmarkSeed:
		return true
	}
	return false
}

// TaskSpec is the versioned, language-agnostic description of a single
// evaluable programming task. Generators produce it, sandboxes provision
// against it, verifiers consume its verification commands and the scoring
// bridge records it.
//
// TaskSpec round-trips through YAML via the canonical field tags so that the
// on-disk sidecar (taskspec.yaml) matches the in-memory shape exactly. The
// field order is the canonical YAML key order.
type TaskSpec struct {
	TaskSpecVersion   int                `yaml:"task_spec_version"`
	TaskID            string             `yaml:"task_id"`
	Language          Language           `yaml:"language"`
	Difficulty        Difficulty         `yaml:"difficulty"`
	DifficultySignals map[string]int     `yaml:"difficulty_signals,omitempty"`
	GeneratedFrom     GeneratedFrom      `yaml:"generated_from"`
	Prompt            string             `yaml:"prompt"`
	SolutionArtifacts []SolutionArtifact `yaml:"solution_artifacts,omitempty"`
	Verification      Verification       `yaml:"verification"`
}

// GeneratedFrom records how a task was produced so that a run is
// reproducible and auditable.
type GeneratedFrom struct {
	Kind       GeneratedKind `yaml:"kind"`
	TemplateID string        `yaml:"template_id,omitempty"`
	// KGQuery is a pointer so that "no query" (nil, key omitted) and "an
	// empty query" (non-nil, written as {}) stay distinguishable.
	KGQuery *KGQuery `yaml:"kg_query,omitempty"`
}

// KGQuery records the knowledge-graph query a kg_template task was framed
// around. It is metadata only: this package issues no queries.
type KGQuery struct {
	Intent     string `yaml:"intent,omitempty"`
	SeedSymbol string `yaml:"seed_symbol,omitempty"`
}

// SolutionArtifact names a file the task expects to exist or be modified
// and its role (e.g. "target"). An empty Path is valid: the harness does
// not interpret it at this layer.
type SolutionArtifact struct {
	Path string `yaml:"path"`
	Role string `yaml:"role,omitempty"`
}

// Verification holds the commands the harness runs after the agent
// finishes. The test command is hidden from the agent; these fields are
// data only and this package executes nothing.
type Verification struct {
	BuildCmd       []string `yaml:"build_cmd,omitempty"`
	TestCmd        []string `yaml:"test_cmd"`
	TimeoutSeconds int      `yaml:"timeout_seconds,omitempty"`
}

// ParseTaskSpec decodes a TaskSpec from the first YAML document in data and
// validates it. Strict decoding rejects unknown fields at every level so
// that a stale-version sidecar cannot be silently misread. Decode failures
// are wrapped as "eval: decode task spec: ..." (empty input gives io.EOF);
// a document that decodes but breaks an invariant returns the Validate
// error.
func ParseTaskSpec(data []byte) (*TaskSpec, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var spec TaskSpec
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("eval: decode task spec: %w", err)
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	return &spec, nil
}

// MarshalYAML serializes the spec to canonical YAML bytes using the yaml.v3
// encoder's defaults (4-space indentation, struct field order, omitempty as
// tagged). Map keys in difficulty_signals are emitted in the encoder's
// stable sorted order so the same spec always produces byte-identical
// output, which is what makes runs reproducible and sidecars diffable.
//
// The signature deliberately differs from yaml.Marshaler, so yaml.v3 encodes
// the struct itself rather than calling back into this method.
func (t *TaskSpec) MarshalYAML() ([]byte, error) {
	return yaml.Marshal(t)
}

// SignalKeys returns the difficulty-signal keys in plain byte order
// (sort.Strings). It is a convenience for callers (verifier, dashboard) that
// need stable iteration; note that it is not the key order yaml.v3 uses
// when writing the map.
func (t *TaskSpec) SignalKeys() []string {
	keys := make([]string, 0, len(t.DifficultySignals))
	for k := range t.DifficultySignals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Validate checks the structural invariants the harness depends on, in a
// fixed order, and returns only the first failure so that the same bad
// document always yields the same message:
//
//  1. task_spec_version is exactly CurrentTaskSpecVersion;
//  2. task_id is not blank after strings.TrimSpace;
//  3. language is a valid Language;
//  4. difficulty is a valid Difficulty;
//  5. generated_from.kind is a valid GeneratedKind;
//  6. prompt is not blank after strings.TrimSpace;
//  7. verification.test_cmd is not empty;
//  8. verification.timeout_seconds is not negative.
//
// Nothing else is checked. In particular it does not validate that
// referenced files or symbols exist: that is a downstream, I/O-bearing
// concern.
func (t *TaskSpec) Validate() error {
	if t.TaskSpecVersion != CurrentTaskSpecVersion {
		return fmt.Errorf("eval: unsupported task_spec_version %d (this build produces v%d)",
			t.TaskSpecVersion, CurrentTaskSpecVersion)
	}
	if strings.TrimSpace(t.TaskID) == "" {
		return fmt.Errorf("eval: task_id is required")
	}
	if !t.Language.Valid() {
		return fmt.Errorf("eval: invalid language %q", string(t.Language))
	}
	if !t.Difficulty.Valid() {
		return fmt.Errorf("eval: invalid difficulty %q", string(t.Difficulty))
	}
	if !t.GeneratedFrom.Kind.Valid() {
		return fmt.Errorf("eval: invalid generated_from.kind %q", string(t.GeneratedFrom.Kind))
	}
	if strings.TrimSpace(t.Prompt) == "" {
		return fmt.Errorf("eval: prompt is required")
	}
	if len(t.Verification.TestCmd) == 0 {
		return fmt.Errorf("eval: verification.test_cmd is required")
	}
	if t.Verification.TimeoutSeconds < 0 {
		return fmt.Errorf("eval: verification.timeout_seconds must be non-negative, got %d",
			t.Verification.TimeoutSeconds)
	}
	return nil
}
