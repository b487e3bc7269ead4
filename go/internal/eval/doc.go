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
//
// The structs are generated (eval.go) by protoc-gen-taskspec-go from
// proto/taskspec/v1/taskspec.proto: a field's (taskspec.v1.field).presence
// decides its omitempty, and PRESENCE_OMIT_UNSET makes a message field a
// pointer, so that unset and empty differ.
package eval
