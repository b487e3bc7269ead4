package taskspec

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

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
//   - the generator's own code: a generator that returns a status error
//     with NotFound, InvalidArgument, FailedPrecondition, Unavailable or
//     DeadlineExceeded reaches the caller with that code and message;
//   - ResourceExhausted: WithMaxConcurrentCalls calls are already running;
//   - Internal: the generator returned any other error or panicked (the message
//     carries the error's text), or returned a spec that fails Validate or is
//     for another language (the message lists the violations). An invalid
//     spec is never passed on;
//   - DeadlineExceeded and Canceled: the call's deadline passed or the caller
//     gave up first. The generator's ctx carries the call's deadline and is
//     cancelled with it, so a slow generator can stop early.
//
// Generator failures are also logged, for the people running the server,
// with slog.Default() or the WithLogger option's logger.
//
// To stop the server gracefully, first mark it NOT_SERVING in the health
// service (the *health.Server RegisterHealth returns, Shutdown), so that
// load balancers stop sending calls, then call the grpc.Server's
// GracefulStop, which refuses new calls and waits for those in flight:
// bound the wait with a timer that calls Stop.
func NewGeneratorServer(registry *Registry, opts ...ServerOption) taskspecv1.GeneratorServiceServer {
	s := &generatorServer{registry: registry, log: slog.Default()}
	for _, opt := range opts {
		opt(s)
	}
	if s.maxCalls > 0 {
		s.slots = make(chan struct{}, s.maxCalls)
	}
	return s
}

// A ServerOption configures NewGeneratorServer.
type ServerOption func(*generatorServer)

// WithLogger logs generator failures to l instead of slog.Default().
func WithLogger(l *slog.Logger) ServerOption {
	return func(s *generatorServer) { s.log = l }
}

// WithMaxConcurrentCalls lets at most n Generate calls run at once; a call
// beyond them is refused at once with ResourceExhausted, rather than queued,
// so that generators that ignore cancellation cannot wedge the server:
// ListLanguages, and the health service (RegisterHealth), always answer.
// n <= 0, the default, sets no limit.
func WithMaxConcurrentCalls(n int) ServerOption {
	return func(s *generatorServer) { s.maxCalls = n }
}

// WithDefaultTimeout gives a Generate call that arrives without a deadline
// this one, so that a client that sets none cannot hold a generator
// forever. d <= 0, the default, sets none.
func WithDefaultTimeout(d time.Duration) ServerOption {
	return func(s *generatorServer) { s.timeout = d }
}

type generatorServer struct {
	taskspecv1.UnimplementedGeneratorServiceServer
	registry *Registry
	log      *slog.Logger
	maxCalls int
	slots    chan struct{} // one token per call in flight, when limited
	timeout  time.Duration
}

// passedCodes are the status codes a generator may report to its caller
// by returning a status error (status.Error(codes.NotFound, ...)): its
// own caller's mistakes (a template that does not exist, a bad argument, a
// precondition) and its collaborators' outages. Any other error is
// Internal.
var passedCodes = map[codes.Code]bool{
	codes.NotFound:           true,
	codes.InvalidArgument:    true,
	codes.FailedPrecondition: true,
	codes.Unavailable:        true,
	codes.DeadlineExceeded:   true,
}

func (s *generatorServer) Generate(ctx context.Context, req *taskspecv1.GenerateRequest) (*taskspecv1.GenerateResponse, error) {
	if s.slots != nil {
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		default:
			return nil, status.Errorf(codes.ResourceExhausted,
				"the server is running %d generator calls, its limit; try again later", s.maxCalls)
		}
	}
	if _, ok := ctx.Deadline(); !ok && s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
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
		if st, ok := status.FromError(err); ok && passedCodes[st.Code()] {
			s.log.InfoContext(ctx, who+" refused the call", "code", st.Code().String(), "message", st.Message())
			return nil, st.Err()
		}
		s.log.ErrorContext(ctx, who+" failed", "error", err)
		return nil, status.Errorf(codes.Internal, "%s failed: %v", who, err)
	}
	if problem := specProblem(spec, lang); problem != "" {
		s.log.ErrorContext(ctx, who+" "+problem)
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
