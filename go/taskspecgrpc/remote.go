package taskspecgrpc

import (
	"context"
	"fmt"
	"regexp"
	"strconv"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// RemoteError reports a failed call to a remote generator. Code is the
// gRPC status code (NotFound, InvalidArgument, FailedPrecondition, Internal,
// DeadlineExceeded, Canceled, Unavailable when no connection could be
// made, ...) and Message the server's message, so a caller can tell its own
// mistakes from the generator's and from the network's. It implements
// GRPCStatus, so status.Code(err) works on it as on any gRPC error.
//
// taskspec.Violations holds the problems of a refused spec or request: those the
// status details carried (a taskspec.v1.Problems, see NewGeneratorServer),
// or those this client found in a spec a server returned. A RemoteError
// with problems unwraps to a *taskspec.ValidationError holding them, so
// errors.As(err, &validationErr) handles a spec refused over the network
// as one refused here.
//
// gRPC's own refusal of a message over the limit is not ResourceExhausted
// here, which the service keeps for "the server is at its call limit, try
// again later" and a retry of it would be refused again: it is
// FailedPrecondition, whichever side refused the message, with a message
// that names the limit.
type RemoteError struct {
	Language taskspecv1.Language
	Code     codes.Code
	Message  string
	// Status is the status the call ended with, details included (with
	// Code and Message, when gRPC's refusal of a message over the limit was
	// reworded); nil for a server that broke the contract after a
	// successful call.
	Status     *status.Status
	Violations []taskspec.Violation
}

// Error returns "taskspec: remote generator for language "python": NotFound: ...".
// A language number the schema does not define is shown by its digits, as
// Register shows it.
func (e *RemoteError) Error() string {
	return fmt.Sprintf("%sremote generator for language %q: %s: %s", errPrefix, languageText(e.Language), e.Code, e.Message)
}

// GRPCStatus returns the error as a gRPC status, with its taskspec.Violations as
// details, so that a generator that returns it passes them on.
func (e *RemoteError) GRPCStatus() *status.Status {
	if e.Status != nil {
		return e.Status
	}
	if len(e.Violations) > 0 {
		return problemStatus(e.Code, e.Message, e.Violations)
	}
	return status.New(e.Code, e.Message)
}

// Unwrap makes errors.Is(err, context.DeadlineExceeded) and
// errors.Is(err, context.Canceled) true for a call that ended so, whether
// the caller's context or the server's deadline ended it, and
// errors.As(err, &ve) find a *taskspec.ValidationError with the violations of a
// call refused for its problems.
func (e *RemoteError) Unwrap() error {
	switch e.Code {
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	case codes.Canceled:
		return context.Canceled
	}
	if len(e.Violations) > 0 {
		return &taskspec.ValidationError{Violations: e.Violations}
	}
	return nil
}

// overLimit matches gRPC's refusal of a message over its limit, in
// grpc-go's words ("grpc: received message larger than max (N vs. M)",
// "grpc: trying to send message larger than max ...") and gRPC C-core's
// ("Received message larger than max (N vs. M)", "Sent message ..."), as
// the client's own error or a server's status.
var overLimit = regexp.MustCompile(`(?i)\b(?:received|sent|send) message (?:after decompression )?larger than max \((\d+) vs\. (\d+)\)`)

// remoteError is the *RemoteError for a call to lang that failed with err.
func remoteError(lang taskspecv1.Language, err error) *RemoteError {
	st := status.Convert(err)
	re := &RemoteError{Language: lang, Code: st.Code(), Message: st.Message(), Status: st}
	for _, d := range st.Details() {
		if problems, ok := d.(*taskspecv1.Problems); ok {
			for _, p := range problems.GetProblems() {
				re.Violations = append(re.Violations, taskspec.ViolationFromProto(p))
			}
			return re
		}
	}
	if m := overLimit.FindStringSubmatch(st.Message()); m != nil && st.Code() == codes.ResourceExhausted {
		re.Code = codes.FailedPrecondition
		size, _ := strconv.ParseInt(m[1], 10, 64)
		limit, _ := strconv.ParseInt(m[2], 10, 64)
		re.Message = overLimitMessage(size, limit)
		re.Status = status.New(re.Code, re.Message)
	}
	return re
}

// overLimitMessage says that a message of size bytes is over limit, in the
// Python client's words.
func overLimitMessage(size, limit int64) string {
	if limit == maxMessageBytes {
		return wordsOverOurLimit(strconv.FormatInt(size, 10), strconv.FormatInt(limit, 10), strconv.Itoa(taskspec.MaxDocumentBytes))
	}
	return wordsOverLimit(strconv.FormatInt(size, 10), strconv.FormatInt(limit, 10))
}

// languageText is l's spelling, or its digits for a number the schema does
// not define.
func languageText(l taskspecv1.Language) string {
	if name, ok := taskspec.LanguageString(l); ok {
		return name
	}
	return strconv.Itoa(int(l))
}

// ListLanguages asks the GeneratorService at the other end of conn which
// languages it has generators for; a failed call is a *RemoteError (with
// Language unset).
func ListLanguages(ctx context.Context, conn grpc.ClientConnInterface) ([]taskspecv1.Language, error) {
	resp, err := NewGeneratorServiceClient(conn).ListLanguages(ctx, &taskspecv1.ListLanguagesRequest{}, callOptions...)
	if err != nil {
		return nil, remoteError(taskspecv1.Language_LANGUAGE_UNSPECIFIED, err)
	}
	return resp.GetLanguages(), nil
}

// RegisterHealth registers the standard gRPC health service
// (grpc.health.v1.Health) on s, SERVING for "" and for the
// GeneratorService, as `taskspec serve` does. Call Shutdown on the result
// when stopping, before GracefulStop, so that health checks see
// NOT_SERVING while calls in flight finish.
func RegisterHealth(s grpc.ServiceRegistrar) *health.Server {
	h := health.NewServer()
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(GeneratorService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
	return h
}

// NewRemoteGenerator returns a taskspec.Generator for language whose work is done by
// the GeneratorService at the other end of conn: a server made with
// [NewGeneratorServer], or one in any other language (`taskspec serve`
// runs one in Python). It registers in a [taskspec.Registry] like any other
// generator.
//
// Generate passes ctx's deadline and cancellation on to the server, where
// the generator sees them. It returns a spec that passed validation on both
// ends and is for language, or a *RemoteError: a server that breaks the
// contract cannot get an invalid spec into this process either, and a spec
// refused for its problems, on either end, unwraps to a *taskspec.ValidationError.
// Each call takes and sends messages up to taskspec.MaxDocumentBytes plus 64 KiB of
// framing (see [GRPCServerOptions]), whatever conn's defaults. conn stays
// the caller's to close.
func NewRemoteGenerator(conn grpc.ClientConnInterface, language taskspecv1.Language) taskspec.Generator {
	return &remoteGenerator{client: NewGeneratorServiceClient(conn), language: language}
}

type remoteGenerator struct {
	client   GeneratorServiceClient
	language taskspecv1.Language
}

func (g *remoteGenerator) Language() taskspecv1.Language { return g.language }

func (g *remoteGenerator) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	resp, err := g.client.Generate(ctx, &taskspecv1.GenerateRequest{Language: g.language, Options: opts}, callOptions...)
	if err != nil {
		return nil, remoteError(g.language, err)
	}
	spec := resp.GetTaskSpec()
	if spec == nil {
		return nil, &RemoteError{Language: g.language, Code: codes.Internal, Message: wordsNoSpec("server")}
	}
	if message, problems := specProblems(spec, g.language, "server"); message != "" {
		return nil, &RemoteError{Language: g.language, Code: codes.FailedPrecondition, Message: message, Violations: problems}
	}
	return spec, nil
}

// errPrefix starts every error's text, as it does the core library's.
const errPrefix = "taskspec: "
