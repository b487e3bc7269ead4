package taskspec

import (
	"context"
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
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
}

// Error returns "eval: remote generator for language "python": NotFound: ...".
func (e *RemoteError) Error() string {
	name, _ := LanguageString(e.Language)
	return fmt.Sprintf("%sremote generator for language %q: %s: %s", errPrefix, name, e.Code, e.Message)
}

// GRPCStatus returns the error as a gRPC status.
func (e *RemoteError) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

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
		return nil, &RemoteError{Language: g.language, Code: st.Code(), Message: st.Message()}
	}
	if problem := specProblem(resp.GetTaskSpec(), g.language); problem != "" {
		return nil, &RemoteError{Language: g.language, Code: codes.Internal, Message: "server " + problem}
	}
	return resp.GetTaskSpec(), nil
}
