package taskspecgrpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/go/taskspecgrpc"
)

// serve starts a GeneratorService on a free local port for reg, logging
// nowhere unless opts say otherwise, and returns a client connection to it
// and a function that stops both, for the examples of the client and of
// the server options. ExampleNewGeneratorServer shows the same steps in
// full, as a service writes them.
func serve(reg *taskspec.Registry, opts ...taskspecgrpc.ServerOption) (*grpc.ClientConn, func()) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	quiet := taskspecgrpc.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg, append([]taskspecgrpc.ServerOption{quiet}, opts...)...))
	taskspecgrpc.RegisterHealth(srv)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	return conn, func() { conn.Close(); srv.GracefulStop() }
}

// missingTemplate is a generator that reports a template it does not have
// as NotFound, which reaches the caller with its message.
type missingTemplate struct{}

func (missingTemplate) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_PYTHON }

func (missingTemplate) Generate(_ context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	return nil, status.Errorf(codes.NotFound, "no template %q", opts.GetTemplateId())
}

// slow is a generator that takes its time, until its context ends.
type slow struct{}

func (slow) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_TYPESCRIPT }

func (slow) Generate(ctx context.Context, _ *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// careless is a generator that breaks the contract: its spec has no
// task_id, or, for "long", a prompt of 5 MB, which is valid.
type careless struct{}

func (careless) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (careless) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	spec, err := goGenerator{}.Generate(ctx, opts)
	if opts.GetTemplateId() == "long" {
		spec.Prompt = strings.Repeat("x", 5_000_000)
	} else {
		spec.TaskId = ""
	}
	return spec, err
}

// A spec the server refuses for its problems arrives as a *ValidationError,
// with the problems the server found.
func ExampleRemoteError_validationError() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(careless{})
	conn, stop := serve(reg)
	defer stop()

	_, err := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).
		Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "impl-pure-fn"})
	fmt.Println(status.Code(err))
	var invalid *taskspec.ValidationError
	if errors.As(err, &invalid) {
		for _, v := range invalid.Violations {
			fmt.Println(v.Code, v.FieldPath, v.Message)
		}
	}
	// Output:
	// FailedPrecondition
	// TS101 task_id task_id is required
}

// A grpc.Server made with GRPCServerOptions, and NewRemoteGenerator, carry
// a spec of any valid size, past gRPC's default of 4 MiB.
func ExampleGRPCServerOptions() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(careless{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg))
	go func() { _ = srv.Serve(lis) }()
	defer srv.GracefulStop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	spec, err := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).
		Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "long"})
	fmt.Println(len(spec.GetPrompt()), err)
	// Output: 5000000 <nil>
}

// The generated client, used directly, needs GRPCDialOptions for a spec
// over 4 MiB.
func ExampleGRPCDialOptions() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(careless{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg))
	go func() { _ = srv.Serve(lis) }()
	defer srv.GracefulStop()

	opts := append(taskspecgrpc.GRPCDialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	conn, err := grpc.NewClient(lis.Addr().String(), opts...)
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	resp, err := taskspecgrpc.NewGeneratorServiceClient(conn).Generate(context.Background(), &taskspecv1.GenerateRequest{
		Language: taskspecv1.Language_LANGUAGE_GO,
		Options:  &taskspecv1.GenerateOptions{TemplateId: "long"},
	})
	fmt.Println(len(resp.GetTaskSpec().GetPrompt()), err)
	// Output: 5000000 <nil>
}

// A generator service from start to stop: the listener, the server with
// its message limits, the GeneratorService and the health service, a call,
// and the graceful shutdown a service does on SIGTERM.
func ExampleNewGeneratorServer() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(goGenerator{})

	lis, err := net.Listen("tcp", "127.0.0.1:0") // a service listens on its port, ":8080"
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg,
		taskspecgrpc.WithDefaultTimeout(30*time.Second),
		taskspecgrpc.WithMaxConcurrentCalls(64),
	))
	health := taskspecgrpc.RegisterHealth(srv)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	gen := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
	spec, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "impl-pure-fn"})
	fmt.Println(spec.GetTaskId(), spec.GetDifficulty(), err)
	conn.Close()

	// Shutting down (a service waits for signal.NotifyContext(ctx,
	// syscall.SIGTERM) first): health checks see NOT_SERVING, so that load
	// balancers stop sending calls; GracefulStop refuses new calls and waits
	// for those in flight, and a timer bounds the wait with Stop.
	health.Shutdown()
	stopped := make(chan struct{})
	go func() { srv.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		srv.Stop()
	}
	fmt.Println(<-served)
	// Output:
	// kg-go-1 DIFFICULTY_MEDIUM <nil>
	// <nil>
}

func ExampleNewRemoteGenerator() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(missingTemplate{})
	conn, stop := serve(reg)
	defer stop()

	// A remote generator is a Generator, and can be registered locally.
	local := taskspec.NewRegistry()
	_ = local.Register(taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON))
	gen, _ := local.Lookup(taskspecv1.Language_LANGUAGE_PYTHON)
	_, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "nope"})
	fmt.Println(status.Code(err), err)
	// Output: NotFound taskspec: remote generator for language "python": NotFound: no template "nope"
}

func ExampleRemoteError() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(slow{})
	conn, stop := serve(reg)
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	gen := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_TYPESCRIPT)
	_, err := gen.Generate(ctx, &taskspecv1.GenerateOptions{})
	var re *taskspecgrpc.RemoteError
	fmt.Println(errors.As(err, &re), re.Language, re.Code)
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	// Output:
	// true LANGUAGE_TYPESCRIPT DeadlineExceeded
	// true
}

func ExampleListLanguages() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(goGenerator{})
	_ = reg.Register(missingTemplate{})
	conn, stop := serve(reg)
	defer stop()

	langs, err := taskspecgrpc.ListLanguages(context.Background(), conn)
	fmt.Println(langs, err)
	// Output: [LANGUAGE_GO LANGUAGE_PYTHON] <nil>
}

// The health service answers SERVING until Shutdown, which a service calls
// before GracefulStop.
func ExampleRegisterHealth() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(taskspec.NewRegistry()))
	health := taskspecgrpc.RegisterHealth(srv)
	go func() { _ = srv.Serve(lis) }()
	defer srv.GracefulStop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	check := func() {
		res, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{
			Service: taskspecgrpc.GeneratorService_ServiceDesc.ServiceName,
		})
		fmt.Println(res.GetStatus(), err)
	}
	check()
	health.Shutdown() // stopping: load balancers stop sending calls
	check()
	// Output:
	// SERVING <nil>
	// NOT_SERVING <nil>
}

// Server options go to NewGeneratorServer; each has its own example.
func ExampleServerOption() {
	opts := []taskspecgrpc.ServerOption{
		taskspecgrpc.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		taskspecgrpc.WithMaxConcurrentCalls(16),
		taskspecgrpc.WithDefaultTimeout(30 * time.Second),
	}
	reg := taskspec.NewRegistry()
	_ = reg.Register(goGenerator{})
	conn, stop := serve(reg, opts...)
	defer stop()
	langs, err := taskspecgrpc.ListLanguages(context.Background(), conn)
	fmt.Println(langs, err)
	// Output: [LANGUAGE_GO] <nil>
}

func ExampleWithLogger() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(missingTemplate{})
	// Generator failures are logged here rather than to slog.Default().
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, stop := serve(reg, taskspecgrpc.WithLogger(logger))
	defer stop()
	_, err := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON).
		Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "x"})
	fmt.Println(status.Code(err))
	// Output: NotFound
}

func ExampleWithMaxConcurrentCalls() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(slow{})
	conn, stop := serve(reg, taskspecgrpc.WithMaxConcurrentCalls(1))
	defer stop()

	gen := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_TYPESCRIPT)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { // holds the only slot until cancel
		for {
			_, err := gen.Generate(ctx, &taskspecv1.GenerateOptions{})
			if status.Code(err) != codes.ResourceExhausted {
				first <- err
				return
			}
		}
	}()
	var err error
	for range 200 {
		probe, done := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err = gen.Generate(probe, &taskspecv1.GenerateOptions{})
		done()
		if status.Code(err) == codes.ResourceExhausted {
			break
		}
	}
	fmt.Println(err)
	cancel()
	fmt.Println(errors.Is(<-first, context.Canceled))
	// Output:
	// taskspec: remote generator for language "typescript": ResourceExhausted: the server is running 1 generator calls, its limit; try again later
	// true
}

func ExampleWithDefaultTimeout() {
	reg := taskspec.NewRegistry()
	_ = reg.Register(slow{})
	conn, stop := serve(reg, taskspecgrpc.WithDefaultTimeout(50*time.Millisecond))
	defer stop()

	// The caller sets no deadline; the server's ends the call.
	_, err := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_TYPESCRIPT).
		Generate(context.Background(), &taskspecv1.GenerateOptions{})
	fmt.Println(status.Code(err), errors.Is(err, context.DeadlineExceeded))
	// Output: DeadlineExceeded true
}
