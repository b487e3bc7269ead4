// Package yaml reads YAML as libyaml does, the reader of the Python
// library (PyYAML's C parser), routine by routine: the same tokens, the
// same events, the same syntax problem at the same mark.
//
// It is built as libyaml is, in four stages, each named after libyaml's
// routines in its doc comments so that a difference can be found by name:
//
//   - the reader (reader.go, reader.c's yaml_parser_update_buffer): UTF-8
//     only, a byte order mark dropped, malformed UTF-8 and control
//     characters refused before anything is read;
//   - the scanner (scanner.go, scalars.go; scanner.c): tokens, with the
//     simple keys, the indentation stack and the flow level;
//   - the parser (parser.go; parser.c): the state machine from tokens to
//     events, with the tag directives;
//   - the composer (compose.go; loader.c): a tree of Nodes with their
//     marks, anchors resolved, and the node and depth budgets spent as the
//     events arrive, so a text past a budget is refused at the first node
//     past it without reading further.
//
// Parse is the entry point; Resolve gives an untagged plain scalar the tag
// yaml.v3 gives it. A refusal is an *Error with libyaml's fields (problem,
// context and their marks), never a string to parse.
//
// # Differences from yaml.v3
//
// yaml.v3 (go.yaml.in/yaml/v3 v3.0.4) is a port of libyaml that reads some
// texts differently. This package follows libyaml; each difference is
// named, and documented, with an input that shows it, at the routine where
// it arises, so that the library can refuse there. With Options.YAMLv3
// the reader refuses there itself, with a DifferenceError that names the
// difference (so far "escape-slash" and "tag-uri-flow-chars", each raised
// at the event of the node it is in, as the Python library finds them on
// libyaml's events); the other differences are still refused by the
// library outside the reader:
//
//   - "bom-at-index", "tab-among-comments", "indicator-tab": scanToNextToken
//   - "block-end-mark": unrollIndent
//   - "bang-tag": scanTag
//   - "tag-uri-flow-chars", "nul-in-tag": scanTagURI
//   - "escape-quote", "escape-slash": scanFlowScalar
//   - "flow-colon", "flow-question": scanPlainScalar
//   - "flow-pair-empty-value-mark": parseFlowSequenceEntryMappingValue
//   - "yaml-version": processDirectives
//   - "second-document-lookahead": composer.document
//   - "utf16": checkInput
//
// yaml.v3 also refuses nesting deeper than 10,000 levels ("depth-limit"),
// which the budgets here bound long before.
//
// From libyaml itself the reader departs once: it refuses malformed UTF-8
// and control characters before reading, where libyaml finds them as its
// 16 KiB input chunks are decoded ("reader-chunks", at checkInput). And a
// repeated anchor replaces the first, as in yaml.v3 and the Python library,
// where libyaml's loader refuses it (see composer.node).
//
// The tests compare the events and errors with libyaml's, recorded from
// PyYAML by scripts/gen_libyaml_events.py, and the trees with yaml.v3's,
// on every document of the repository's vectors, and, by fuzzing, on
// random texts, where any difference must be one of the named ones.
package yaml
