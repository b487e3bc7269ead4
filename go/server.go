package taskspec

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// NewGeneratorServer returns the GeneratorService over registry, for
// registration on a grpc.Server with
// taskspecv1.RegisterGeneratorServiceServer. The registry is consulted on
// every call, so generators registered later are served too.
//
// The status codes are the service's contract, the same as the Python
// server's (taskspec.remote.serve), so a client in either language can tell
// its own mistakes from the generator's:
//
//   - InvalidArgument: the request's language is UNSPECIFIED or a number the
//     schema does not define;
//   - NotFound: no generator is registered for the language;
//   - Internal: the generator returned an error or panicked (the message
//     carries the error's text), or returned a spec that fails Validate or is
//     for another language (the message lists the violations). An invalid
//     spec is never passed on;
//   - DeadlineExceeded and Canceled: the call's deadline passed or the caller
//     gave up first. The generator's ctx carries the call's deadline and is
//     cancelled with it, so a slow generator can stop early.
//
// Generator failures are also logged with slog, for the people running the
// server.
func NewGeneratorServer(registry *Registry) taskspecv1.GeneratorServiceServer {
	return &generatorServer{registry: registry}
}

type generatorServer struct {
	taskspecv1.UnimplementedGeneratorServiceServer
	registry *Registry
}

func (s *generatorServer) Generate(ctx context.Context, req *taskspecv1.GenerateRequest) (*taskspecv1.GenerateResponse, error) {
	lang := req.GetLanguage()
	if lang == taskspecv1.Language_LANGUAGE_UNSPECIFIED {
		return nil, status.Error(codes.InvalidArgument, "language is required")
	}
	name, ok := LanguageString(lang)
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "language %d is not defined in taskspec.v1.Language", int32(lang))
	}
	who := fmt.Sprintf("generator for language %q", name)
	gen, ok := s.registry.Lookup(lang)
	if !ok {
		return nil, status.Error(codes.NotFound, "no "+who)
	}
	opts := req.GetOptions()
	if opts == nil {
		opts = &taskspecv1.GenerateOptions{}
	}
	spec, err := safeGenerate(ctx, gen, opts)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Nobody waits for the answer any more; the caller already has
			// its own DeadlineExceeded or Canceled.
			return nil, status.FromContextError(ctxErr).Err()
		}
		slog.ErrorContext(ctx, who+" failed", "error", err)
		return nil, status.Errorf(codes.Internal, "%s failed: %v", who, err)
	}
	if problem := specProblem(spec, lang); problem != "" {
		slog.ErrorContext(ctx, who+" "+problem)
		return nil, status.Errorf(codes.Internal, "%s %s", who, problem)
	}
	return &taskspecv1.GenerateResponse{TaskSpec: spec}, nil
}

func (s *generatorServer) ListLanguages(context.Context, *taskspecv1.ListLanguagesRequest) (*taskspecv1.ListLanguagesResponse, error) {
	return &taskspecv1.ListLanguagesResponse{Languages: s.registry.Languages()}, nil
}

// safeGenerate calls gen, turning a panic into an error: grpc-go does not
// recover panics in handlers, and one broken generator must not take the
// whole server, with every other caller's call, down with it.
func safeGenerate(ctx context.Context, gen Generator, opts *taskspecv1.GenerateOptions) (spec *taskspecv1.TaskSpec, err error) {
	defer func() {
		if r := recover(); r != nil {
			spec, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return gen.Generate(ctx, opts)
}

// specProblem says why spec may not be handed to a caller who asked for
// lang, or returns "". The wording is the Python library's, so both servers
// and both clients report a broken generator alike.
func specProblem(spec *taskspecv1.TaskSpec, lang taskspecv1.Language) string {
	if spec == nil {
		return "returned no task spec"
	}
	if vs := Violations(spec); len(vs) > 0 {
		listed := make([]string, len(vs))
		for i, v := range vs {
			if v.FieldPath != "" {
				listed[i] = v.FieldPath + ": " + v.Message
			} else {
				listed[i] = v.Message
			}
		}
		return "returned an invalid task spec: " + strings.Join(listed, "; ")
	}
	if spec.GetLanguage() != lang {
		got, _ := LanguageString(spec.GetLanguage())
		want, _ := LanguageString(lang)
		return fmt.Sprintf("returned a task spec for language %q, not %q", got, want)
	}
	return ""
}
