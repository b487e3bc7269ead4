// Package eval holds the YAML shape of a TaskSpec: the Go package's structs,
// with the same names, field order and YAML tags.
//
// The taskspec package decodes and encodes YAML through these structs rather
// than through the generated protobuf message, for two reasons. yaml.v3 gives
// the canonical bytes (key order, omitempty, quoting) only for this exact
// shape, and its error messages name the destination type
// ("field bogus not found in type eval.TaskSpec"), so the package must be
// called eval and the types must carry these names for the messages to be the
// Go package's, byte for byte. It is internal because it is an encoding
// detail: the public API speaks only *taskspecv1.TaskSpec.
package eval

// Language, Difficulty and GeneratedKind are the Go package's string types.
// Any text decodes into them, so that a document's spelling survives
// decoding even when it names no value and Validate can report it as
// written; their names appear in yaml.v3's messages
// ("cannot unmarshal !!seq into eval.Language").
type (
	Language      string
	Difficulty    string
	GeneratedKind string
)

// TaskSpec is the Go package's eval.TaskSpec.
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

// GeneratedFrom is the Go package's eval.GeneratedFrom. KGQuery is a pointer
// so that an absent kg_query (nil, omitted) and an empty one ({}) differ.
type GeneratedFrom struct {
	Kind       GeneratedKind `yaml:"kind"`
	TemplateID string        `yaml:"template_id,omitempty"`
	KGQuery    *KGQuery      `yaml:"kg_query,omitempty"`
}

// KGQuery is the Go package's eval.KGQuery.
type KGQuery struct {
	Intent     string `yaml:"intent,omitempty"`
	SeedSymbol string `yaml:"seed_symbol,omitempty"`
}

// SolutionArtifact is the Go package's eval.SolutionArtifact.
type SolutionArtifact struct {
	Path string `yaml:"path"`
	Role string `yaml:"role,omitempty"`
}

// Verification is the Go package's eval.Verification.
type Verification struct {
	BuildCmd       []string `yaml:"build_cmd,omitempty"`
	TestCmd        []string `yaml:"test_cmd"`
	TimeoutSeconds int      `yaml:"timeout_seconds,omitempty"`
}
