// Package taskspec is the Go half of the TaskSpec v1 contract: it reads,
// validates and writes taskspec.yaml sidecars on top of the protobuf
// messages generated from proto/taskspec/v1/taskspec.proto
// (package taskspecv1), exactly as the Go package eval (v0.4.2) and the
// Python library do. It replaces that package, whose behaviour this
// repository keeps, for the conformance tests, in the stand-in
// [github.com/taskspec/taskspec/tests/conformance/go/eval].
//
// A Go service that adopts the proto needs the same strict YAML bridge, enum
// spellings and rules that the Go package's eval.TaskSpec carries; this
// package is that bridge, so no service writes it again, and its tests hold
// it to the shared conformance vectors and, live, to the Python library.
//
//   - ParseYAML decodes strictly (unknown and duplicate keys are errors at
//     every level) and validates. Validate's messages, and the prefixes
//     callers match ("eval: decode task spec", "invalid language"), are the
//     Go package's; every other word is the contract's catalogue's.
//   - Check lists every problem of a document at once (decode, validate
//     and warnings), each a Violation with its code of the catalogue
//     (Lookup, Explain), position and hint, as the Python library's
//     check does.
//   - MarshalYAML writes the Go package's canonical bytes, byte for byte.
//   - Validate and Violations apply the Go package's rules, in its order
//     and wording: the typed constraints of each field's
//     (taskspec.v1.field).rules, each kind of constraint implemented once
//     (constraints.go) and reported with its declared code.
//   - Generator and Registry are the Go package's generator seam on the
//     generated messages.
//   - Load and Save read boundedly and write atomically.
//   - ParseJSON, MarshalJSON, ParseBinpb, MarshalBinpb and Convert read
//     and write the other two encodings (Format), validating, with the
//     Python library's bytes and messages.
//
// Every exported function and type has an Example, except these groups,
// shown in the examples of what they belong to: the error types' Error,
// Unwrap and GRPCStatus methods (see each type's example); the limits
// MaxDocumentBytes, MaxDepth and MaxNodes (ParseYAML, ParseJSON and
// ParseBinpb refuse input over them, Convert and Save output); the
// constants CurrentTaskSpecVersion (Validate) and YAML, JSON and Binpb
// (Format); the signal keys SignalInvolvedSymbols, SignalEdgeCount and
// SignalCyclomaticComplexity (DeriveDifficulty);
// ErrNotRegular (Load); and Violation's String method (Violation).
//
// The package is stricter than the Go package in a few documented places
// (see StrictError), where yaml.v3 would lose data silently or YAML readers
// disagree; the Python library makes the same choices.
package taskspec
