// Package taskspec reads, validates and writes TaskSpecs: the task records
// of proto/taskspec/v1/taskspec.proto, kept next to a task as a
// taskspec.yaml sidecar. The messages themselves are the generated ones of
// package taskspecv1 ([taskspecv1.TaskSpec]); this package adds what the
// protobuf runtime does not give them: a strict YAML encoding with one
// canonical form, the contract's rules and its catalogue of problems,
// bounded and atomic file I/O, and the Registry of generators.
//
// The GeneratorService, which produces TaskSpecs over gRPC, is package
// taskspecgrpc (github.com/taskspec/taskspec/go/taskspecgrpc), a module of
// its own: this package imports only the protobuf runtime and yaml.v3, and
// a program that only reads and writes specs links no gRPC, net/http or
// TLS. A binary holds one copy of the taskspec/v1 stubs, those of
// github.com/taskspec/taskspec/gen/go/taskspec/v1: a service imports them
// instead of generating its own, which protobuf-go would refuse to
// register twice.
//
// A Python library implements the same contract, and the two agree on what
// they accept, the bytes they write and the problems they report: each
// problem's code, position and wording.
//
// # Quick start
//
// [ParseYAML] decodes a sidecar and validates it; [MarshalYAML] writes the
// canonical bytes back:
//
//	spec, err := taskspec.ParseYAML(data)
//	if err != nil {
//		return err // a *DecodeError or a *ValidationError
//	}
//	spec.Prompt = "Implement mathx.GCD without recursion."
//	if err := taskspec.Validate(spec); err != nil {
//		return err
//	}
//	out, err := taskspec.MarshalYAML(spec)
//
// [Load] and [Save] do the same with a file: Load refuses a file over
// [MaxDocumentBytes] after a bounded read and never blocks on a FIFO or
// device; Save validates first and replaces the file atomically. [Read] and [LoadFS] read from an
// io.Reader and an fs.FS. Load, LoadFS and Save go by the file's
// extension, as the Python library's load and save do: .yaml and .yml are
// YAML, .json proto3 JSON, .binpb and .pb binary protobuf ([FormatForPath]);
// another name is a [*FormatError]. [LoadFormat], [SaveFormat] and
// [ReadFormat] take the format instead.
//
// [Check] lists every problem of a document at once, for editors, linters
// and CI, each a [Violation] with its code, position and hint; [LookupProblem] and
// [Explain] describe a code:
//
//	for _, v := range taskspec.Check(data) {
//		fmt.Printf("%s %s: %s\n", v.Code, v.FieldPath, v)
//	}
//
// A problem that has one safe fix (a misspelt key or enum value, a value
// that must be quoted) carries it as a [Fix], and [ApplyFixes] writes a
// document's fixes in, changing nothing else.
//
// The same TaskSpec has two other encodings, proto3 JSON and binary
// protobuf ([Format]): [ParseJSON], [MarshalJSON], [ParseBinpb],
// [MarshalBinpb], the format-generic [Parse], [Marshal] and [CheckFormat],
// and [Convert] between any two.
//
// A [Generator] produces TaskSpecs for one language; a [Registry] holds one
// per language. In package taskspecgrpc, NewGeneratorServer serves a
// registry as the GeneratorService, and NewRemoteGenerator is a Generator
// backed by such a server, written in Go or in any other language:
//
//	reg := taskspec.NewRegistry()
//	if err := reg.Register(myGoGenerator); err != nil {
//		return err
//	}
//	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
//	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg))
//	taskspecgrpc.RegisterHealth(srv)
//
//	// In the client:
//	gen := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
//	spec, err := gen.Generate(ctx, &taskspecv1.GenerateOptions{})
//
// # Reading and writing
//
// Reading is strict. An unknown key, a key given twice or a value of the
// wrong type is an error at every level of the document, and so is input
// that YAML readers disagree on or that would lose data (see
// [StrictError]). Key order, flow style, comments, anchors and indentation
// do not matter. Every document is bounded by [MaxDocumentBytes], [MaxDepth]
// and [MaxNodes], so a hostile or mistaken input is cheap to refuse.
//
// Writing is canonical: [MarshalYAML] and [MarshalJSON] write one sequence
// of bytes for a spec, so sidecars can be compared, hashed and diffed. The
// Marshal functions do not validate, so an invalid spec can be written out
// for inspection; [Save] and [Convert] write only what a reader accepts.
//
// Enum values are spelled in YAML as lower-case words ("go", "medium",
// "kg_template"); [LanguageString], [ParseLanguage] and their siblings
// convert between the spellings and the generated constants.
//
// # Errors
//
// Every problem the contract defines is a [Violation], with a code of the
// catalogue ("TS001"). The errors that carry them are types, to be found
// with errors.As, whatever wraps them:
//
//   - [*DecodeError]: a document that cannot be read as a TaskSpec. Its
//     Violations are every problem of the document, as [Check] lists them.
//   - [*StrictError]: a YAML document refused on purpose, the cause of a
//     DecodeError.
//   - [*ValidationError]: a spec that breaks a rule, from [Validate] and
//     every Parse function. Its Violations are every broken rule.
//   - [*WriteError], [*EnumError]: a spec that cannot be written as asked.
//   - [*FormatError]: a file name whose extension names no format.
//   - [*ArtifactPathError]: an artifact path that leaves its workspace.
//
// For example:
//
//	spec, err := taskspec.Load(path)
//	var verr *taskspec.ValidationError
//	if errors.As(err, &verr) {
//		for _, v := range verr.Violations {
//			log.Printf("%s: %s", path, v)
//		}
//	}
//
// Load's errors for the file itself are *fs.PathError values, so
// errors.Is(err, fs.ErrNotExist) works; a path that is not a regular file
// is errors.Is(err, [ErrNotRegular]).
//
// Every error message of this package starts with "taskspec: ". An error
// that holds more than one problem shows the first and counts the others:
// "taskspec: task_id is required (and 2 more problems)". To tell problems
// apart, use a Violation's Code, a constant such as [CodeUnknownKey],
// rather than its text.
//
// One mistake finds the same error type whatever else is wrong with the
// document: a problem of the decode stage (an unknown key, a value of the
// wrong type, YAML that cannot be read) makes the error a [*DecodeError];
// a broken rule of the contract (an invalid language, a missing task_id)
// makes errors.As find a [*ValidationError], in a DecodeError too when the
// document has both. A document that only breaks rules gives a
// *ValidationError.
//
// # Concurrency
//
// The functions of this package keep no state between calls and are safe
// for concurrent use, as is a [Registry]. A [Violation] or error is a value
// the caller owns. The server returned by taskspecgrpc.NewGeneratorServer
// serves calls concurrently, so the Generators it serves must be safe for
// concurrent use too.
//
// # Compatibility with the eval package
//
// Go services used to read and write sidecars with the eval package (v0.4.2),
// whose TaskSpec was a plain struct with YAML tags. This package replaces it
// on the generated messages and keeps what callers depend on:
//
//   - [MarshalYAML] writes the bytes eval's TaskSpec.MarshalYAML writes for
//     the same spec, byte for byte: yaml.v3's key order, omitempty fields,
//     4-space indentation and map-key order. The exceptions are the few
//     inputs for which yaml.v3 writes bytes it cannot read back; for those
//     MarshalYAML changes the fewest bytes that make the document read back.
//   - [ParseYAML] accepts the documents eval.ParseTaskSpec accepts, with the
//     exceptions below, and reads them as the same spec.
//   - [Validate] checks the rules of eval's TaskSpec.Validate, in the same
//     order, and each Violation's Message is eval's words for its rule
//     ("task_id is required").
//   - [Registry.Register] and [DeriveDifficulty] fail with eval's words,
//     [CurrentTaskSpecVersion] and the Signal keys have eval's values, and
//     [SignalKeys] and [Registry.Languages] sort as eval's do.
//
// Error texts differ from eval's in their prefix: eval's started with
// "eval: " ("eval: task_id is required", "eval: decode task spec: ..."),
// this package's with "taskspec: " ("taskspec: task_id is required",
// "taskspec: decode task spec: ..."). After the prefix, a broken rule's
// text is eval's, followed by " (and N more problems)" when there are
// more; a document eval cannot decode is described in this package's
// words. A caller that matched eval's texts matches the text after the
// prefix, or better, the Violation's Code.
//
// It is stricter in four ways, each where what eval accepted could be lost,
// misread, or refused by another reader:
//
//   - Documents that yaml.v3 reads while losing data (a fraction in an
//     integer field, a null list item, a second document, a key given
//     twice through an alias) or that YAML readers read differently (merge
//     keys, tags) are refused with a [*StrictError].
//   - Documents over [MaxDocumentBytes], [MaxDepth] or [MaxNodes] are
//     refused before they are decoded; eval read a document of any size.
//   - [Validate] also requires what a spec needs to be saved and read back:
//     every string valid UTF-8 (TS106) and canonical YAML within
//     [MaxDocumentBytes] (TS107).
//   - The marshalers refuse an enum number the schema does not define
//     ([*EnumError]) and a string that is not UTF-8, which YAML cannot carry.
//
// The package also offers what eval did not have: [Check] and the catalogue
// of problems, the JSON and binary protobuf encodings, [Load] and [Save],
// [AgentView], artifact path checks, and the gRPC GeneratorService (in
// package taskspecgrpc).
package taskspec
