// Package eval is a conformance stand-in for the Go package that defines the
// TaskSpec v1 data contract (package eval, v0.4.2). It reproduces that
// package's exported types, YAML tags and behaviour so that the Python
// implementation in this repository can be checked against real Go output
// without depending on the original module.
//
// Like the original, the package is free of I/O: it performs no sandbox
// provisioning, no knowledge-graph queries and no filesystem access beyond
// in-memory (de)serialization helpers.
//
// # Versioning
//
// Every TaskSpec carries a TaskSpec.TaskSpecVersion. Schema evolution is
// explicit and auditable: consumers bind to a version, and
// CurrentTaskSpecVersion names the version this build produces. A change
// that breaks readers needs a new version, and v1 stays readable.
package eval
