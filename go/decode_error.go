package taskspec

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A DecodeError reports a document that cannot be read as a TaskSpec,
// with where the problem is: the field path ("generated_from.kindd"), the
// 1-based line and column (0 when unknown) and, for an unknown key, the
// field it most likely meant (Hint: `did you mean "kind"?`). These are the
// Python library's DecodeError fields, with the same values.
//
// Error returns the text of the error it wraps, which is the Go package's
// own message where the Go package rejects the document ("eval: decode
// task spec: yaml: unmarshal errors:\n  line 2: field taskid not found in
// type eval.TaskSpec"), so logs and callers that match on it see no change:
// the structure is added, the words stay. Unwrap gives that error: a
// *StrictError for the rules this package is stricter in, or yaml.v3's.
type DecodeError struct {
	FieldPath string
	Line      int
	Column    int
	Hint      string
	Err       error
}

func (e *DecodeError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// hint is the "did you mean" for an unknown key among fields, or "".
func hint(key string, fields map[string]field) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	if guess := suggest(key, names); guess != "" {
		return "did you mean " + strconv.Quote(guess) + "?"
	}
	return ""
}

var errLine = regexp.MustCompile(`line (\d+)`)

// located wraps a decode failure in a *DecodeError that says where it is,
// from what the walk found: the first unknown key, a stricter rule's
// refusal, or the line yaml.v3 names, matched to the field whose value
// starts there.
func located(err error, w *walker) error {
	var verr *ValidationError
	if errors.As(err, &verr) {
		return err
	}
	de := &DecodeError{Err: err}
	var strict *StrictError
	switch {
	case errors.As(err, &strict):
		de.FieldPath, de.Line, de.Column = strict.FieldPath, strict.Line, strict.Column
	case w.firstUnknown != nil && strings.Contains(err.Error(), " not found in type "):
		de.FieldPath, de.Line, de.Column, de.Hint = w.firstUnknown.FieldPath, w.firstUnknown.Line, w.firstUnknown.Column, w.firstUnknown.Hint
	case w.err != nil && strings.HasPrefix(w.err.Reason, "duplicate key ") &&
		strings.Contains(err.Error(), " already defined at line "):
		de.FieldPath, de.Line, de.Column = w.err.FieldPath, w.err.Line, w.err.Column
	case !errLine.MatchString(err.Error()) && w.err != nil:
		// yaml.v3 names no line ("cannot decode !!str `abc` as a !!int"):
		// the walk's refusal of the same value says where it is.
		de.FieldPath, de.Line, de.Column = w.err.FieldPath, w.err.Line, w.err.Column
	default:
		if m := errLine.FindStringSubmatch(err.Error()); m != nil {
			de.Line, _ = strconv.Atoi(m[1])
			best := ""
			for path, p := range w.pos {
				// The deepest field whose value starts on that line.
				if p.line == de.Line && (best == "" || len(path) > len(best) || len(path) == len(best) && path < best) {
					best, de.Column = path, p.column
				}
			}
			de.FieldPath = best
		}
	}
	return de
}
