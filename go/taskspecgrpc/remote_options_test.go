package taskspecgrpc

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// coded is a Python generator that fails with the code its template names,
// or blocks until released ("block").
type coded struct {
	release chan struct{}
	entered chan struct{}
}

func (c *coded) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_PYTHON }

func (c *coded) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	switch t := opts.GetTemplateId(); t {
	case "block":
		c.entered <- struct{}{}
		select {
		case <-c.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(30 * time.Second):
		}
		return nil, errors.New("released")
	case "aborted":
		return nil, status.Error(codes.Aborted, "not passed on")
	default:
		code := map[string]codes.Code{"NotFound": codes.NotFound, "InvalidArgument": codes.InvalidArgument,
			"FailedPrecondition": codes.FailedPrecondition, "Unavailable": codes.Unavailable,
			"DeadlineExceeded": codes.DeadlineExceeded}[t]
		return nil, status.Errorf(code, "no template %q", t)
	}
}

func serveWith(t *testing.T, gen taskspec.Generator, opts ...ServerOption) *grpc.ClientConn {
	t.Helper()
	reg := taskspec.NewRegistry()
	if err := reg.Register(gen); err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	RegisterGeneratorServiceServer(srv, NewGeneratorServer(reg, opts...))
	RegisterHealth(srv)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(); srv.Stop() })
	return conn
}

func TestAGeneratorsStatusCodeReachesTheCaller(t *testing.T) {
	var logs bytes.Buffer
	gen := &coded{}
	conn := serveWith(t, gen, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
	for _, name := range []string{"NotFound", "InvalidArgument", "FailedPrecondition", "Unavailable", "DeadlineExceeded"} {
		_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: name})
		var re *RemoteError
		if !errors.As(err, &re) || re.Code.String() != name || re.Message != `no template "`+name+`"` {
			t.Errorf("%s: got %v", name, err)
		}
	}
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "aborted"})
	if status.Code(err) != codes.Internal {
		t.Errorf("another code: got %v", err)
	}
	if !strings.Contains(logs.String(), `msg="generator refused the call" language=python elapsed=`) ||
		!strings.Contains(logs.String(), `code=NotFound`) {
		t.Errorf("not logged to the option's logger: %q", logs.String())
	}
}

func TestRemoteErrorUnwrapsToTheContextError(t *testing.T) {
	gen := &coded{release: make(chan struct{}), entered: make(chan struct{}, 8)}
	conn := serveWith(t, gen)
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := remote.Generate(ctx, &taskspecv1.GenerateOptions{TemplateId: "block"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("after the deadline: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-gen.entered; cancel() }()
	_, err = remote.Generate(ctx, &taskspecv1.GenerateOptions{TemplateId: "block"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("after cancelling: %v", err)
	}
	if err := (&RemoteError{Language: 99, Code: codes.NotFound, Message: "m"}); err.Error() != `taskspec: remote generator for language "99": NotFound: m` {
		t.Errorf("an undefined language: %v", err)
	}
}

func TestConcurrentCallsBeyondTheLimitAreRefusedAndTheRestAnswers(t *testing.T) {
	gen := &coded{release: make(chan struct{}), entered: make(chan struct{}, 8)}
	conn := serveWith(t, gen, WithMaxConcurrentCalls(2))
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "block"})
			done <- err
		}()
		<-gen.entered
	}
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "block"})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a third call: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if langs, err := ListLanguages(ctx, conn); err != nil || len(langs) != 1 || langs[0] != taskspecv1.Language_LANGUAGE_PYTHON {
		t.Errorf("ListLanguages: %v %v", langs, err)
	}
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "taskspec.v1.GeneratorService"})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v %v", resp, err)
	}
	close(gen.release)
	for range 2 {
		if err := <-done; status.Code(err) != codes.Internal {
			t.Errorf("a released call: %v", err)
		}
	}
}

func TestADefaultTimeoutBoundsACallWithoutADeadline(t *testing.T) {
	gen := &coded{release: make(chan struct{}), entered: make(chan struct{}, 8)}
	conn := serveWith(t, gen, WithDefaultTimeout(100*time.Millisecond))
	_, err := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON).Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "block"})
	if status.Code(err) != codes.DeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v", err)
	}
}
