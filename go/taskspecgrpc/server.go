package taskspecgrpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// NewGeneratorServer returns the GeneratorService over registry, for
// registration on a grpc.Server with
// taskspecv1.RegisterGeneratorServiceServer. The registry is consulted on
// every call, so generators registered later are served too. A nil
// registry serves no language: every Generate call is NotFound.
//
// The status codes are the service's contract, the same for a server in
// any language, so that a client can tell its own mistakes from the
// generator's:
//
//   - InvalidArgument: the request's language is UNSPECIFIED or a number the
//     schema does not define (with a TS103 problem for "language");
//   - NotFound: no generator is registered for the language;
//   - the generator's own code: a generator that returns a status error
//     with NotFound, InvalidArgument, FailedPrecondition, Unavailable or
//     DeadlineExceeded reaches the caller with that code and message; an
//     error that wraps context.DeadlineExceeded or context.Canceled (a
//     collaborator's call that timed out) reaches it as DeadlineExceeded or
//     Canceled;
//   - FailedPrecondition: the generator returned a spec that fails Validate
//     (TS107 for one over the document limit included) or is for another
//     language. Retrying gives the same spec: the generator must be fixed.
//     The message lists the problems; the spec is never passed on;
//   - ResourceExhausted: WithMaxConcurrentCalls calls are already running,
//     the one code that invites a retry later;
//   - Internal: the generator returned any other error, or no spec, or
//     panicked (the message carries the error's text or the panic's value;
//     the log has the panic's stack too);
//   - DeadlineExceeded and Canceled: the call's deadline passed or the caller
//     gave up first. The generator's ctx carries the call's deadline and is
//     cancelled with it, so a slow generator can stop early. The answer
//     comes at the deadline even from a generator that ignores its ctx: the
//     generator runs in its own goroutine, which is left to finish on its
//     own, and what it returns then is dropped.
//
// The problems of an InvalidArgument or FailedPrecondition answer travel
// as status details (status.WithDetails: a taskspec.v1.Problems in the
// standard grpc-status-details-bin trailer), as google.rpc.BadRequest field
// violations do; [NewRemoteGenerator] turns them back into a
// [*taskspec.ValidationError] with the same problems.
//
// Create the grpc.Server with GRPCServerOptions, so that it takes and
// sends messages up to taskspec.MaxDocumentBytes plus 64 KiB rather than gRPC's
// 4 MiB: a valid spec can be larger.
//
// taskspec.Generator failures are also logged, for the people running the server,
// with slog.Default() or the WithLogger option's logger.
//
// To stop the server gracefully, first mark it NOT_SERVING in the health
// service (the *health.Server RegisterHealth returns, Shutdown), so that
// load balancers stop sending calls, then call the grpc.Server's
// GracefulStop, which refuses new calls and waits for those in flight:
// bound the wait with a timer that calls Stop.
func NewGeneratorServer(registry *taskspec.Registry, opts ...ServerOption) GeneratorServiceServer {
	if registry == nil {
		registry = taskspec.NewRegistry()
	}
	s := &generatorServer{registry: registry, log: slog.Default(), maxAbandoned: DefaultMaxAbandonedCalls}
	for _, opt := range opts {
		if opt != nil {
			opt.apply(s)
		}
	}
	if s.maxCalls > 0 {
		s.slots = make(chan struct{}, s.maxCalls)
	}
	return s
}

// A ServerOption configures NewGeneratorServer. The With functions make
// them.
type ServerOption interface {
	apply(*generatorServer)
}

// serverOption is a ServerOption that calls its function.
type serverOption func(*generatorServer)

func (o serverOption) apply(s *generatorServer) { o(s) }

// WithLogger logs generator failures to l instead of slog.Default(). A nil
// l keeps slog.Default().
func WithLogger(l *slog.Logger) ServerOption {
	return serverOption(func(s *generatorServer) {
		if l != nil {
			s.log = l
		}
	})
}

// WithMaxConcurrentCalls lets at most n Generate calls run at once; a call
// beyond them is refused at once with ResourceExhausted, rather than queued,
// so that generators that ignore cancellation cannot wedge the server:
// ListLanguages, and the health service (RegisterHealth), always answer.
// n <= 0, the default, sets no limit.
//
// A call holds its slot until it is answered: at its generator's return,
// or at its deadline (the caller's or WithDefaultTimeout's), or when its
// caller gives up. A generator that ignores its ctx and runs on after
// that is abandoned, and WithMaxAbandonedCalls bounds those apart.
func WithMaxConcurrentCalls(n int) ServerOption {
	return serverOption(func(s *generatorServer) { s.maxCalls = n })
}

// DefaultMaxAbandonedCalls is how many abandoned generators a server
// lets run before it refuses new calls, unless WithMaxAbandonedCalls says
// otherwise; the Python server's default is the same.
const DefaultMaxAbandonedCalls = 64

// WithMaxAbandonedCalls bounds the generators that run on after their
// calls were answered (at the deadline, or when the caller gave up): while
// n of them run, a new Generate call is refused at once with
// ResourceExhausted, so that generators that ignore cancellation cannot
// pile up without end. Each is logged when it is abandoned and again when
// it returns, its result dropped. n <= 0 sets no limit; the default is
// DefaultMaxAbandonedCalls.
func WithMaxAbandonedCalls(n int) ServerOption {
	return serverOption(func(s *generatorServer) { s.maxAbandoned = n })
}

// WithDefaultTimeout gives a Generate call that arrives without a deadline
// this one, so that a client that sets none cannot hold a generator
// forever. d <= 0, the default, sets none.
//
// At the deadline, the caller's or this one, the call is answered
// DeadlineExceeded whether or not the generator has returned: its ctx is
// cancelled, and a generator that ignores it runs on in its own goroutine
// until it returns, its result dropped (see WithMaxAbandonedCalls).
func WithDefaultTimeout(d time.Duration) ServerOption {
	return serverOption(func(s *generatorServer) { s.timeout = d })
}

type generatorServer struct {
	UnimplementedGeneratorServiceServer
	registry *taskspec.Registry
	log      *slog.Logger
	maxCalls int
	slots    chan struct{} // one token per call in flight, when limited
	timeout  time.Duration
	// maxAbandoned bounds abandoned, the generators still running after
	// their calls were answered.
	maxAbandoned int
	abandoned    atomic.Int64
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
	// The call holds its slot until it is answered, whether or not its
	// generator has returned by then.
	if s.slots != nil {
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		default:
			return nil, status.Error(codes.ResourceExhausted, wordsBusyCalls(strconv.Itoa(s.maxCalls)))
		}
	}
	if s.maxAbandoned > 0 && s.abandoned.Load() >= int64(s.maxAbandoned) {
		return nil, status.Error(codes.ResourceExhausted, wordsBusyGenerators(strconv.Itoa(s.maxAbandoned)))
	}
	if _, ok := ctx.Deadline(); !ok && s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	lang := req.GetLanguage()
	name, ok := taskspec.LanguageString(lang)
	if !ok || lang == taskspecv1.Language_LANGUAGE_UNSPECIFIED {
		bad := wordsLanguageUndefined(strconv.Itoa(int(lang)))
		if lang == taskspecv1.Language_LANGUAGE_UNSPECIFIED {
			bad = wordsLanguageRequired()
		}
		return nil, problemStatus(codes.InvalidArgument, bad, []taskspec.Violation{
			{FieldPath: "language", Message: bad, Code: codeDefinedValue, Severity: taskspec.SeverityError},
		}).Err()
	}
	who := fmt.Sprintf("generator for language %q", name)
	// Every record of the call carries its language and, once the
	// generator has run, the time it took; the message is fixed text, so
	// that logs can be searched and counted by it.
	started := time.Now()
	log := s.log.With("language", name)
	gen, ok := s.registry.Lookup(lang)
	if !ok {
		return nil, status.Error(codes.NotFound, "no "+who)
	}
	opts := req.GetOptions()
	if opts == nil {
		opts = &taskspecv1.GenerateOptions{}
	}
	done := make(chan generated, 1) // buffered: a late generator never blocks
	// state is the generator's: running, then returned, or abandoned when
	// the call is answered first; whichever comes first wins.
	var state atomic.Int32
	go func() {
		var g generated
		g.spec, g.err = safeGenerate(ctx, gen, opts)
		var p *panicError
		if errors.As(g.err, &p) {
			// Logged here, so that a panic after the call was answered
			// is logged too.
			log.ErrorContext(ctx, "generator panicked", "elapsed", time.Since(started),
				"panic", fmt.Sprint(p.value), "stack", string(p.stack))
		}
		if !state.CompareAndSwap(generatorRunning, generatorReturned) {
			left := s.abandoned.Add(-1)
			log.InfoContext(ctx, "abandoned generator returned", "elapsed", time.Since(started), "abandoned", left)
		}
		done <- g
	}()
	var spec *taskspecv1.TaskSpec
	var err error
	select {
	case g := <-done:
		spec, err = g.spec, g.err
	case <-ctx.Done():
		// The deadline passed or the caller gave up, and the generator has
		// not returned: answer now, and let it finish on its own.
		if state.CompareAndSwap(generatorRunning, generatorAbandoned) {
			n := s.abandoned.Add(1)
			log.WarnContext(ctx, "generator abandoned", "elapsed", time.Since(started),
				"code", status.FromContextError(ctx.Err()).Code().String(), "abandoned", n, "limit", s.maxAbandoned)
		}
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Nobody waits for the answer any more; the caller already has
			// its own DeadlineExceeded or Canceled.
			return nil, status.FromContextError(ctxErr).Err()
		}
		var p *panicError
		if errors.As(err, &p) {
			return nil, status.Errorf(codes.Internal, "%s failed: %v", who, err)
		}
		if st, ok := status.FromError(err); ok && passedCodes[st.Code()] {
			log.InfoContext(ctx, "generator refused the call", "elapsed", time.Since(started),
				"code", st.Code().String(), "message", st.Message())
			return nil, st.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			st := status.FromContextError(err)
			log.InfoContext(ctx, "generator refused the call", "elapsed", time.Since(started),
				"code", st.Code().String(), "message", st.Message())
			return nil, st.Err()
		}
		log.ErrorContext(ctx, "generator failed", "elapsed", time.Since(started), "error", err)
		return nil, status.Errorf(codes.Internal, "%s failed: %v", who, err)
	}
	if spec == nil {
		log.ErrorContext(ctx, "generator returned no task spec", "elapsed", time.Since(started))
		return nil, status.Error(codes.Internal, wordsNoSpec(who))
	}
	if message, problems := specProblems(spec, lang, who); message != "" {
		log.ErrorContext(ctx, "generator returned a task spec it may not", "elapsed", time.Since(started),
			"code", problems[0].Code, "problems", len(problems), "message", message)
		return nil, problemStatus(codes.FailedPrecondition, message, problems).Err()
	}
	return &taskspecv1.GenerateResponse{TaskSpec: spec}, nil
}

func (s *generatorServer) ListLanguages(context.Context, *taskspecv1.ListLanguagesRequest) (*taskspecv1.ListLanguagesResponse, error) {
	return &taskspecv1.ListLanguagesResponse{Languages: s.registry.Languages()}, nil
}

// generated is what a generator's goroutine returns.
// The states of a call's generator.
const (
	generatorRunning int32 = iota
	generatorReturned
	generatorAbandoned
)

type generated struct {
	spec *taskspecv1.TaskSpec
	err  error
}

// A panicError is a generator's recovered panic: its value, and the stack
// of the goroutine that panicked, for the server's log. The caller sees
// only the value.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// safeGenerate calls gen, turning a panic into a *panicError: grpc-go does
// not recover panics in handlers (and a panic in the generator's own
// goroutine would end the process), and one broken generator must not take
// the whole server, with every other caller's call, down with it.
func safeGenerate(ctx context.Context, gen taskspec.Generator, opts *taskspecv1.GenerateOptions) (spec *taskspecv1.TaskSpec, err error) {
	defer func() {
		if r := recover(); r != nil {
			spec, err = nil, &panicError{value: r, stack: debug.Stack()}
		}
	}()
	return gen.Generate(ctx, opts)
}

// codeDefinedValue is TS103, an enum value missing or not one the call
// allows: the request's language, and the language of a generated spec.
var codeDefinedValue = taskspec.CodeDefined

// specProblems says why spec may not be handed to a caller who asked for
// lang: the status message (who first) and the problems, every broken rule
// of the contract, or a TS103 on "language" for a spec for another
// language (its value is not the one value the call allows). It returns
// "" for a spec that may. The wording is the Python library's, so both
// servers and both clients report a broken generator alike.
func specProblems(spec *taskspecv1.TaskSpec, lang taskspecv1.Language, who string) (string, []taskspec.Violation) {
	if vs := taskspec.Violations(spec); len(vs) > 0 {
		kept, left := statusProblems(vs)
		return wordsInvalidSpec(who, listProblems(kept, left)), kept
	}
	if spec.GetLanguage() != lang {
		got, _ := taskspec.LanguageString(spec.GetLanguage())
		want, _ := taskspec.LanguageString(lang)
		return wordsWrongLanguage(who, strconv.Quote(got), strconv.Quote(want)), []taskspec.Violation{{
			FieldPath: "language", Message: fmt.Sprintf("language %q is not %q, the language asked for", got, want),
			Code: codeDefinedValue, Severity: taskspec.SeverityError,
		}}
	}
	return "", nil
}

// The bounds on the problems one status carries, so that its trailers stay
// well within the 8 KiB of metadata a gRPC C-core client (Python's)
// accepts by default; the Python server keeps the same, so both answer
// alike. Each problem's strings are cut to problemTextBytes at a
// character's start, and problems are taken in order while the encoded
// taskspec.v1.Problems stays within problemsBytes (the first always). Only
// a hostile spec comes near.
const (
	problemTextBytes = 512
	problemsBytes    = 2048
)

// cutText is s as valid UTF-8 (proto strings must be), cut to
// problemTextBytes at a character's start.
func cutText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= problemTextBytes {
		return s
	}
	n := problemTextBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// statusProblems returns the problems one status carries, each cut, and
// how many are left out.
func statusProblems(vs []taskspec.Violation) (kept []taskspec.Violation, left int) {
	var enc taskspecv1.Problems
	for _, v := range vs {
		v.FieldPath, v.Message, v.Hint = cutText(v.FieldPath), cutText(v.Message), cutText(v.Hint)
		enc.Problems = append(enc.Problems, v.Proto())
		if len(kept) > 0 && proto.Size(&enc) > problemsBytes {
			break
		}
		kept = append(kept, v)
	}
	return kept, len(vs) - len(kept)
}

// listProblems is the problems as a status message lists them:
// "path: message; ...", then how many were left out.
func listProblems(vs []taskspec.Violation, left int) string {
	listed := make([]string, len(vs))
	for i, v := range vs {
		if v.FieldPath != "" {
			listed[i] = v.FieldPath + ": " + v.Message
		} else {
			listed[i] = v.Message
		}
	}
	text := strings.Join(listed, "; ")
	switch {
	case left == 1:
		text += " (and 1 more problem)"
	case left > 1:
		text += fmt.Sprintf(" (and %d more problems)", left)
	}
	return text
}

// problemStatus is a status with code and message whose details carry vs
// as a taskspec.v1.Problems.
func problemStatus(code codes.Code, message string, vs []taskspec.Violation) *status.Status {
	st := status.New(code, message)
	problems := &taskspecv1.Problems{Problems: make([]*taskspecv1.Problem, len(vs))}
	for i, v := range vs {
		problems.Problems[i] = v.Proto()
	}
	if detailed, err := st.WithDetails(problems); err == nil {
		return detailed
	}
	return st // cannot happen: the problems' strings are UTF-8
}

// maxMessageBytes is the largest GeneratorService message the Go server
// (with GRPCServerOptions) and client take or send: the contract's document
// limit (taskspec.MaxDocumentBytes), within which a valid spec's canonical YAML is,
// plus 64 KiB for the rest of the response. gRPC's default of 4 MiB would
// refuse valid specs. The Python library uses the same
// (taskspec.remote.MAX_MESSAGE_BYTES).
const maxMessageBytes = taskspec.MaxDocumentBytes + 64<<10

// GRPCServerOptions returns the options a grpc.Server that serves
// NewGeneratorServer needs: messages up to taskspec.MaxDocumentBytes plus 64 KiB of
// framing each way, rather than gRPC's 4 MiB, so that a spec of any valid
// size crosses.
//
//	srv := grpc.NewServer(taskspec.GRPCServerOptions()...)
func GRPCServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.MaxRecvMsgSize(maxMessageBytes), grpc.MaxSendMsgSize(maxMessageBytes)}
}

// GRPCDialOptions returns the options for a client connection over which
// the generated GeneratorService client is used directly: messages up to
// taskspec.MaxDocumentBytes plus 64 KiB of framing each way, as GRPCServerOptions. NewRemoteGenerator needs none of them, since it
// sets the limits on each call itself.
func GRPCDialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(callOptions...)}
}

// callOptions set a call's message limits to maxMessageBytes.
var callOptions = []grpc.CallOption{grpc.MaxCallRecvMsgSize(maxMessageBytes), grpc.MaxCallSendMsgSize(maxMessageBytes)}
