package taskspec

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// enumTable maps one proto enum to its YAML spellings. The spellings are the
// value names less the enum's prefix, in lower case ("LANGUAGE_GO" is "go"),
// and the zero (UNSPECIFIED) value is "", which is what the Go package's
// string types hold when unset. The tables (languageEnum, difficultyEnum,
// generatedKindEnum) are generated from the descriptors into
// contract_gen.go by protoc-gen-taskspec-go, so an enum value added to the
// proto needs no edit here; TestEnumTablesMatchDescriptors pins them.
type enumTable[E ~int32] struct {
	path    string // the field path Validate names, e.g. "generated_from.kind"
	toText  map[E]string
	fromTxt map[string]E
}

func newEnumTable[E ~int32](path string, spellings map[E]string) enumTable[E] {
	t := enumTable[E]{path: path, toText: spellings, fromTxt: make(map[string]E, len(spellings))}
	for n, s := range spellings {
		t.fromTxt[s] = n
	}
	return t
}

// text is the spelling Validate reports for n: its YAML spelling, or its
// digits for a number the schema does not define (an open proto3 enum can
// carry any int32), so that the message still says what the field holds.
func (t enumTable[E]) text(n E) string {
	if s, ok := t.toText[n]; ok {
		return s
	}
	return fmt.Sprint(int32(n))
}

// valid reports whether s spells a value other than UNSPECIFIED. The
// comparison is exact, as in the Go package's Valid methods: case matters.
func (t enumTable[E]) valid(s string) bool {
	_, ok := t.fromTxt[s]
	return ok && s != ""
}

// An enumLookup is an enumTable seen without its Go type, for code that
// walks messages by their descriptors (enumTables holds one per enum).
type enumLookup interface {
	spelling(n protoreflect.EnumNumber) (string, bool)
	number(s string) (protoreflect.EnumNumber, bool)
	fieldPath() string
	texts() []string
}

// texts returns every spelling, sorted, "" (UNSPECIFIED) included.
func (t enumTable[E]) texts() []string {
	out := make([]string, 0, len(t.fromTxt))
	for s := range t.fromTxt {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func (t enumTable[E]) spelling(n protoreflect.EnumNumber) (string, bool) {
	s, ok := t.toText[E(n)]
	return s, ok
}

func (t enumTable[E]) number(s string) (protoreflect.EnumNumber, bool) {
	n, ok := t.fromTxt[s]
	return protoreflect.EnumNumber(n), ok
}

func (t enumTable[E]) fieldPath() string { return t.path }

func (t enumTable[E]) parse(s string) (E, error) {
	if !t.valid(s) {
		return 0, fmt.Errorf("%sinvalid %s %q", errPrefix, t.path, s)
	}
	return t.fromTxt[s], nil
}

// LanguageString returns the YAML spelling of l ("go", "python",
// "typescript", and "" for LANGUAGE_UNSPECIFIED). ok is false for a number
// the schema does not define, which has no spelling.
func LanguageString(l taskspecv1.Language) (s string, ok bool) {
	s, ok = languageEnum.toText[l]
	return s, ok
}

// ParseLanguage returns the Language spelled s. Only the exact spellings
// [LanguageString] returns are accepted: case matters, and "" is not a
// language. The error reads like Validate's: taskspec: invalid language "Go".
func ParseLanguage(s string) (taskspecv1.Language, error) { return languageEnum.parse(s) }

// DifficultyString returns the YAML spelling of d ("easy", "medium",
// "hard", and "" for DIFFICULTY_UNSPECIFIED). ok is false for a number the
// schema does not define.
func DifficultyString(d taskspecv1.Difficulty) (s string, ok bool) {
	s, ok = difficultyEnum.toText[d]
	return s, ok
}

// ParseDifficulty returns the Difficulty spelled s, with the rules of
// ParseLanguage: exact spellings only, "" refused.
func ParseDifficulty(s string) (taskspecv1.Difficulty, error) { return difficultyEnum.parse(s) }

// GeneratedKindString returns the YAML spelling of k ("kg_template",
// "benchmark_seed", and "" for GENERATED_KIND_UNSPECIFIED). ok is false for
// a number the schema does not define.
func GeneratedKindString(k taskspecv1.GeneratedKind) (s string, ok bool) {
	s, ok = generatedKindEnum.toText[k]
	return s, ok
}

// ParseGeneratedKind returns the GeneratedKind spelled s, with the rules of
// ParseLanguage: exact spellings only, "" refused.
func ParseGeneratedKind(s string) (taskspecv1.GeneratedKind, error) {
	return generatedKindEnum.parse(s)
}

// EnumString returns the YAML spelling of any TaskSpec enum value, as
// LanguageString and its siblings do for theirs: for code that walks
// messages by their descriptors. ok is false for an enum that is not the
// contract's, or a number it does not define.
func EnumString(e protoreflect.Enum) (s string, ok bool) {
	t, ok := enumTables[e.Descriptor().FullName()]
	if !ok {
		return "", false
	}
	return t.spelling(e.Number())
}

// ParseEnum returns the value of the enum ed spelled s, with the rules of
// ParseLanguage ("" is not a value; case matters) and its error text.
func ParseEnum(ed protoreflect.EnumDescriptor, s string) (protoreflect.EnumNumber, error) {
	t, ok := enumTables[ed.FullName()]
	if !ok {
		return 0, fmt.Errorf("%s%s is not an enum of the contract", errPrefix, ed.FullName())
	}
	n, ok := t.number(s)
	if !ok || s == "" {
		return 0, fmt.Errorf("%sinvalid %s %q", errPrefix, t.fieldPath(), s)
	}
	return n, nil
}
