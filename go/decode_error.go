package taskspec

import (
	"slices"
)

// A DecodeError reports a document that cannot be read as a TaskSpec.
// Violations holds every problem of the document, first first: the one a
// reader that stops at one problem meets, then the others in document
// order, then the broken rules of what could be read and the warnings,
// exactly as Check lists them. FieldPath, Line, Column, Code and Hint are
// those of the first problem: where it is (the field path
// "generated_from.kindd", the 1-based line and column, 0 when unknown), its
// code of the catalogue ([CodeUnknownKey]) and how to fix it (`did you mean
// "kind"?`).
//
// Error returns "taskspec: decode task spec: " (for JSON and binary
// protobuf, "taskspec: "), the first problem as the contract renders it
// ("line 2, column 1: taskid: unknown field \"taskid\"; did you mean
// \"task_id\"?"), in the catalogue's words, and " (and N more problems)"
// when there are more. Err, which Unwrap returns, is the parser's own
// error or the [*StrictError] that refused the document, or nil; the
// parser's words are for logs, not the contract's.
//
// The readers (ParseYAML, ParseJSON, ParseBinpb, Parse, Load) give one
// error for every problem of a document, so that one mistake finds the same
// type whatever else is wrong with the document: a problem of the decode
// stage (an unknown key, a syntax error) makes it a DecodeError, and a
// broken rule (an invalid language) makes errors.As find a
// [*ValidationError], beside the DecodeError when there are both. A
// document that only breaks rules gives a *ValidationError alone.
type DecodeError struct {
	FieldPath  string
	Line       int
	Column     int
	Code       Code
	Hint       string
	Violations []Violation
	Err        error
	// prefix starts Error()'s text: "taskspec: decode task spec: " for
	// YAML (when empty), "taskspec: " for JSON and binary protobuf.
	prefix string
}

// Error returns the first problem, after the "taskspec: decode task spec: "
// prefix (for JSON and binary protobuf, "taskspec: "), then how many more
// there are.
func (e *DecodeError) Error() string {
	prefix := e.prefix
	if prefix == "" {
		prefix = decodePrefix
	}
	if vs := e.problems(); len(vs) > 0 {
		return prefix + vs[0].String() + andMore(len(vs)-1)
	}
	return prefix + "the document cannot be read"
}

// Unwrap returns the underlying error, or nil.
func (e *DecodeError) Unwrap() error { return e.Err }

// As makes errors.As(err, &ve), with ve a *ValidationError, find one when
// the document breaks a rule of the contract besides its decode problems:
// a ValidationError holding the same Violations, as a *ValidationError
// unwrapped from a [*RemoteError] holds them. For a document without a
// broken rule, it is false and errors.As looks on through Unwrap.
func (e *DecodeError) As(target any) bool {
	ve, ok := target.(**ValidationError)
	if !ok || !slices.ContainsFunc(e.Violations, brokenRule) {
		return false
	}
	*ve = &ValidationError{Violations: slices.Clone(e.Violations)}
	return true
}

// brokenRule reports whether v is a broken rule of the contract: an error
// of the catalogue's validate stage.
func brokenRule(v Violation) bool {
	k := catalogue[v.Code]
	return v.Severity != SeverityWarning && k != nil && k.Stage == "validate"
}

// problems returns the problems the error holds: Violations, or the one
// its fields describe when it was built with them alone.
func (e *DecodeError) problems() []Violation {
	if len(e.Violations) > 0 {
		return e.Violations
	}
	if e.Code == "" && e.FieldPath == "" && e.Line == 0 {
		return nil
	}
	return []Violation{{FieldPath: e.FieldPath, Line: e.Line, Column: e.Column, Code: e.Code, Hint: e.Hint,
		Message: e.FieldPath, Severity: SeverityError}}
}

// newDecodeError is a DecodeError holding vs, its fields those of vs[0].
func newDecodeError(vs []Violation, err error) *DecodeError {
	de := &DecodeError{Violations: slices.Clone(vs), Err: err}
	if len(vs) > 0 {
		de.FieldPath, de.Line, de.Column, de.Code, de.Hint = vs[0].FieldPath, vs[0].Line, vs[0].Column, vs[0].Code, vs[0].Hint
	}
	return de
}
