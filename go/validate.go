package taskspec

import (
	"fmt"
	"sort"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// CurrentTaskSpecVersion is the TaskSpec schema version this package reads
// and writes. Validate rejects every other value, 0 included, so that a
// reader never silently misreads a document written for another version.
const CurrentTaskSpecVersion = 1

// errPrefix starts every error message of this package, as it starts every
// message of the Go package, so that a service can switch between the two
// without changing its logs, alerts or tests.
const errPrefix = "eval: "

// A Violation is one broken rule of the contract, found by Validate or
// ParseYAML.
//
// FieldPath names the field with the canonical YAML keys joined by dots
// ("generated_from.kind"). Message is the Go package's wording without its
// "eval: " prefix, which is also the message the Python library's
// Violation carries, so logs from services in either language read alike.
// Line and Column are the 1-based position of the offending value when the
// spec came from a document (for a missing field, the position of its
// nearest enclosing mapping), and 0 for a spec built in memory.
type Violation struct {
	FieldPath string
	Message   string
	Line      int
	Column    int
}

// String returns the message, after the position when there is one.
func (v Violation) String() string {
	if v.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", v.Line, v.Column, v.Message)
	}
	return v.Message
}

// A ValidationError reports a spec that breaks the contract. Violations
// holds every broken rule in the Go package's order; Error returns only the
// first, exactly as the Go package's Validate does ("eval: task_id is
// required"), because callers match on that text.
type ValidationError struct {
	Violations []Violation
}

// Error returns the Go package's message for the first violation.
func (e *ValidationError) Error() string {
	if len(e.Violations) == 0 {
		return errPrefix + "invalid task spec"
	}
	return errPrefix + e.Violations[0].Message
}

// checked is what the rules look at, taken either from a decoded document
// (enum text as written) or from a message (enum text as spelled, or the
// digits of an undefined number). One rule set serves both, so a document
// and the message it decodes to can never be judged differently.
type checked struct {
	version        int64
	taskID, prompt string
	language       string
	difficulty     string
	kind           string
	testCmds       int
	timeout        int64
}

// check returns every violation in the Go package's order: version,
// task_id, language, difficulty, generated_from.kind, prompt,
// verification.test_cmd, verification.timeout_seconds. Nothing else is
// checked; in particular an empty solution artifact path and an empty
// kg_query are valid, and no file or symbol is looked up.
func check(c *checked) []Violation {
	var out []Violation
	add := func(path, msg string) { out = append(out, Violation{FieldPath: path, Message: msg}) }
	if c.version != CurrentTaskSpecVersion {
		add("task_spec_version", fmt.Sprintf("unsupported task_spec_version %d (this build produces v%d)",
			c.version, CurrentTaskSpecVersion))
	}
	// strings.TrimSpace is the Go package's notion of blank (unicode.IsSpace).
	if strings.TrimSpace(c.taskID) == "" {
		add("task_id", "task_id is required")
	}
	if !languages.valid(c.language) {
		add(languages.path, fmt.Sprintf("invalid %s %q", languages.path, c.language))
	}
	if !difficulties.valid(c.difficulty) {
		add(difficulties.path, fmt.Sprintf("invalid %s %q", difficulties.path, c.difficulty))
	}
	if !kinds.valid(c.kind) {
		add(kinds.path, fmt.Sprintf("invalid %s %q", kinds.path, c.kind))
	}
	if strings.TrimSpace(c.prompt) == "" {
		add("prompt", "prompt is required")
	}
	if c.testCmds == 0 {
		add("verification.test_cmd", "verification.test_cmd is required")
	}
	if c.timeout < 0 {
		add("verification.timeout_seconds",
			fmt.Sprintf("verification.timeout_seconds must be non-negative, got %d", c.timeout))
	}
	return out
}

func checkedFromProto(spec *taskspecv1.TaskSpec) *checked {
	return &checked{
		version:    spec.GetTaskSpecVersion(),
		taskID:     spec.GetTaskId(),
		language:   languages.text(spec.GetLanguage()),
		difficulty: difficulties.text(spec.GetDifficulty()),
		kind:       kinds.text(spec.GetGeneratedFrom().GetKind()),
		prompt:     spec.GetPrompt(),
		testCmds:   len(spec.GetVerification().GetTestCmd()),
		timeout:    spec.GetVerification().GetTimeoutSeconds(),
	}
}

// Violations returns every rule spec breaks, in the Go package's order, or
// nil when it is valid. The list is the one the Python library's
// ValidationError.violations holds for the same spec. An enum number the
// schema does not define is reported by its digits (invalid language "7").
// A nil spec is checked as an empty one, as the generated getters read it.
func Violations(spec *taskspecv1.TaskSpec) []Violation {
	return check(checkedFromProto(spec))
}

// Validate checks spec against the contract and returns nil or a
// *ValidationError whose message is the Go package's for the first broken
// rule (use errors.As to get all of them). Like the Go package, it does not
// check that referenced files or symbols exist: that is a downstream,
// I/O-bearing concern.
func Validate(spec *taskspecv1.TaskSpec) error {
	if vs := Violations(spec); len(vs) > 0 {
		return &ValidationError{Violations: vs}
	}
	return nil
}

// SignalKeys returns the difficulty-signal keys in plain byte order, as the
// Go package's SignalKeys (sort.Strings) does, for callers that need a
// stable iteration order. It is never nil. Note that it is not the order in
// which MarshalYAML writes the keys: that is yaml.v3's own order, in which
// "a9" comes before "a10".
func SignalKeys(spec *taskspecv1.TaskSpec) []string {
	sig := spec.GetDifficultySignals()
	keys := make([]string, 0, len(sig))
	for k := range sig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
