package taskspec

import (
	"context"
	"fmt"
	"strconv"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// RemoteError reports a failed call to a remote generator. Code is the
// gRPC status code (NotFound, InvalidArgument, Internal, DeadlineExceeded,
// Canceled, Unavailable when no connection could be made, ...) and Message
// the server's message, so a caller can tell its own mistakes from the
// generator's and from the network's. It implements GRPCStatus, so
// status.Code(err) works on it as on any gRPC error.
type RemoteError struct {
	Language taskspecv1.Language
	Code     codes.Code
	Message  string
	// Status is the status the call ended with, details included; nil for
	// a server that broke the contract after a successful call.
	Status *status.Status
}

// Error returns "eval: remote generator for language "python": NotFound: ...".
// A language number the schema does not define is shown by its digits, as
// Register shows it.
func (e *RemoteError) Error() string {
	return fmt.Sprintf("%sremote generator for language %q: %s: %s", errPrefix, languageText(e.Language), e.Code, e.Message)
}

// GRPCStatus returns the error as a gRPC status.
func (e *RemoteError) GRPCStatus() *status.Status {
	if e.Status != nil {
		return e.Status
	}
	return status.New(e.Code, e.Message)
}

// Unwrap makes errors.Is(err, context.DeadlineExceeded) and
// errors.Is(err, context.Canceled) true for a call that ended so, whether
// the caller's context or the server's deadline ended it.
func (e *RemoteError) Unwrap() error {
	switch e.Code {
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	case codes.Canceled:
		return context.Canceled
	}
	return nil
}

// languageText is l's spelling, or its digits for a number the schema does
// not define.
func languageText(l taskspecv1.Language) string {
	if name, ok := LanguageString(l); ok {
		return name
	}
	return strconv.Itoa(int(l))
}

// ListLanguages asks the GeneratorService at the other end of conn which
// languages it has generators for; a failed call is a *RemoteError (with
// Language unset).
func ListLanguages(ctx context.Context, conn grpc.ClientConnInterface) ([]taskspecv1.Language, error) {
	resp, err := taskspecv1.NewGeneratorServiceClient(conn).ListLanguages(ctx, &taskspecv1.ListLanguagesRequest{})
	if err != nil {
		st := status.Convert(err)
		return nil, &RemoteError{Code: st.Code(), Message: st.Message(), Status: st}
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
	h.SetServingStatus(taskspecv1.GeneratorService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
	return h
}

// NewRemoteGenerator returns a Generator for language whose work is done by
// the GeneratorService at the other end of conn, a server in any language
// (the Python one is `taskspec serve`). It registers in a Registry like any
// other generator.
//
// Generate passes ctx's deadline and cancellation on to the server, where
// the generator sees them. It returns a spec that passed validation on both
// ends and is for language, or a *RemoteError: a server that breaks the
// contract cannot get an invalid spec into this process either. conn stays
// the caller's to close.
func NewRemoteGenerator(conn grpc.ClientConnInterface, language taskspecv1.Language) Generator {
	return &remoteGenerator{client: taskspecv1.NewGeneratorServiceClient(conn), language: language}
}

type remoteGenerator struct {
	client   taskspecv1.GeneratorServiceClient
	language taskspecv1.Language
}

func (g *remoteGenerator) Language() taskspecv1.Language { return g.language }

func (g *remoteGenerator) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	resp, err := g.client.Generate(ctx, &taskspecv1.GenerateRequest{Language: g.language, Options: opts})
	if err != nil {
		st := status.Convert(err)
		return nil, &RemoteError{Language: g.language, Code: st.Code(), Message: st.Message(), Status: st}
	}
	if problem := specProblem(resp.GetTaskSpec(), g.language); problem != "" {
		return nil, &RemoteError{Language: g.language, Code: codes.Internal, Message: "server " + problem}
	}
	return resp.GetTaskSpec(), nil
}
