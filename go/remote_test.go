package taskspec

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// scripted is a Generator whose behaviour the caller picks through
// GenerateOptions.TemplateId, as tests/remoteutil.py's ScriptedGenerator.
type scripted struct {
	lang     taskspecv1.Language
	entered  chan struct{}
	release  chan struct{}
	mu       sync.Mutex
	deadline []bool // whether each "wait" call's ctx had a deadline
	ended    []error
}

func newScripted(lang taskspecv1.Language) *scripted {
	return &scripted{lang: lang, entered: make(chan struct{}, 128), release: make(chan struct{})}
}

func (s *scripted) Language() taskspecv1.Language { return s.lang }

func validScripted(lang taskspecv1.Language, template string) *taskspecv1.TaskSpec {
	band, signals, _ := DeriveDifficulty(DifficultyInputs{NodeCount: 2, EdgeCount: 3, Cyclomatic: 2})
	name, _ := LanguageString(lang)
	if template == "" {
		template = "ok"
	}
	return &taskspecv1.TaskSpec{
		TaskSpecVersion:   1,
		TaskId:            "scripted-" + name + "-" + template,
		Language:          lang,
		Difficulty:        band,
		DifficultySignals: signals,
		GeneratedFrom:     &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: template},
		Prompt:            "Implement the scripted task.",
		Verification:      &taskspecv1.Verification{TestCmd: []string{"go", "test", "./..."}},
	}
}

func (s *scripted) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	s.entered <- struct{}{}
	switch opts.GetTemplateId() {
	case "fail":
		return nil, errors.New("scripted failure")
	case "panic":
		panic("scripted panic")
	case "invalid":
		spec := validScripted(s.lang, "invalid")
		spec.TaskId = " "
		spec.Verification.TestCmd = nil
		return spec, nil
	case "wrong-language":
		return validScripted(taskspecv1.Language_LANGUAGE_TYPESCRIPT, "wrong-language"), nil
	case "nil":
		return nil, nil
	case "wait":
		_, has := ctx.Deadline()
		select {
		case <-ctx.Done():
		case <-time.After(30 * time.Second): // bound: no test hangs
		}
		s.mu.Lock()
		s.deadline = append(s.deadline, has)
		s.ended = append(s.ended, ctx.Err())
		s.mu.Unlock()
		return nil, ctx.Err()
	case "hold":
		select {
		case <-s.release:
		case <-time.After(30 * time.Second):
		}
	}
	return validScripted(s.lang, opts.GetTemplateId()), nil
}

// serveLoopback serves reg on 127.0.0.1 and returns a client connection.
func serveLoopback(t *testing.T, reg *Registry) (*grpc.Server, *grpc.ClientConn) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	taskspecv1.RegisterGeneratorServiceServer(srv, NewGeneratorServer(reg))
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	return srv, conn
}

func setup(t *testing.T) (*scripted, *grpc.Server, *grpc.ClientConn, Generator) {
	t.Helper()
	gen := newScripted(taskspecv1.Language_LANGUAGE_GO)
	reg := NewRegistry()
	if err := reg.Register(gen); err != nil {
		t.Fatal(err)
	}
	srv, conn := serveLoopback(t, reg)
	return gen, srv, conn, NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
}

func remoteCode(t *testing.T, err error) (codes.Code, string) {
	t.Helper()
	var re *RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("got %T %v, want *RemoteError", err, err)
	}
	if status.Code(err) != re.Code {
		t.Fatalf("status.Code = %v, want %v", status.Code(err), re.Code)
	}
	return re.Code, re.Message
}

func TestRemoteGenerateRoundTrip(t *testing.T) {
	_, _, _, remote := setup(t)
	reg := NewRegistry()
	if err := reg.Register(remote); err != nil {
		t.Fatal(err)
	}
	gen, _ := reg.Lookup(taskspecv1.Language_LANGUAGE_GO)
	spec, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "t-7"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.GetTaskId() != "scripted-go-t-7" || Validate(spec) != nil {
		t.Fatalf("got %v", spec)
	}
}

func TestRemoteStatusCodes(t *testing.T) {
	_, _, conn, remote := setup(t)
	cases := []struct {
		template string
		code     codes.Code
		message  string
	}{
		{"fail", codes.Internal, `generator for language "go" failed: scripted failure`},
		{"panic", codes.Internal, `generator for language "go" failed: panic: scripted panic`},
		{"invalid", codes.Internal, `generator for language "go" returned an invalid task spec: task_id: task_id is required; verification.test_cmd: verification.test_cmd is required`},
		{"wrong-language", codes.Internal, `generator for language "go" returned a task spec for language "typescript", not "go"`},
		{"nil", codes.Internal, `generator for language "go" returned no task spec`},
	}
	for _, c := range cases {
		_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: c.template})
		code, msg := remoteCode(t, err)
		if code != c.code || msg != c.message {
			t.Errorf("%s: got %v %q, want %v %q", c.template, code, msg, c.code, c.message)
		}
	}
	py := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
	_, err := py.Generate(context.Background(), nil)
	if code, msg := remoteCode(t, err); code != codes.NotFound || msg != `no generator for language "python"` {
		t.Errorf("got %v %q", code, msg)
	}
	client := taskspecv1.NewGeneratorServiceClient(conn)
	for lang, want := range map[taskspecv1.Language]string{0: "language is required", 99: "language 99 is not defined in taskspec.v1.Language"} {
		_, err := client.Generate(context.Background(), &taskspecv1.GenerateRequest{Language: lang})
		if st := status.Convert(err); st.Code() != codes.InvalidArgument || st.Message() != want {
			t.Errorf("language %d: got %v", lang, st)
		}
	}
	langs, err := client.ListLanguages(context.Background(), &taskspecv1.ListLanguagesRequest{})
	if err != nil || fmt.Sprint(langs.GetLanguages()) != "[LANGUAGE_GO]" {
		t.Errorf("ListLanguages: %v %v", langs, err)
	}
}

func TestRemoteDeadlineAndCancellationReachTheGenerator(t *testing.T) {
	gen, _, _, remote := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := remote.Generate(ctx, &taskspecv1.GenerateOptions{TemplateId: "wait"})
	if code, _ := remoteCode(t, err); code != codes.DeadlineExceeded {
		t.Fatalf("got %v", code)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := remote.Generate(ctx2, &taskspecv1.GenerateOptions{TemplateId: "wait"})
		done <- err
	}()
	<-gen.entered // the first call's
	<-gen.entered
	cancel2()
	if code, _ := remoteCode(t, <-done); code != codes.Canceled {
		t.Fatalf("got %v", code)
	}
	for range 300 { // bounded: until the generator has recorded both calls
		gen.mu.Lock()
		n := len(gen.ended)
		gen.mu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	gen.mu.Lock()
	defer gen.mu.Unlock()
	// The first ctx carried the deadline; both were done when the caller
	// stopped waiting. (grpc-go may end the first with Canceled: the
	// client's deadline and the server's race.)
	if fmt.Sprint(gen.deadline) != "[true false]" || len(gen.ended) != 2 || gen.ended[0] == nil || gen.ended[1] == nil {
		t.Fatalf("generator saw deadlines %v and ends %v", gen.deadline, gen.ended)
	}
}

func TestRemoteUnavailable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close() // nothing listens there any more
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).Generate(context.Background(), nil)
	if code, _ := remoteCode(t, err); code != codes.Unavailable {
		t.Fatalf("got %v", code)
	}
}

func TestRemote64ConcurrentCalls(t *testing.T) {
	_, _, _, remote := setup(t)
	var wg sync.WaitGroup
	errs := make([]error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tmpl := fmt.Sprintf("c%d", i)
			spec, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: tmpl})
			if err == nil && spec.GetGeneratedFrom().GetTemplateId() != tmpl {
				err = fmt.Errorf("got template %q", spec.GetGeneratedFrom().GetTemplateId())
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestGracefulStopFinishesCallsInFlight(t *testing.T) {
	gen, srv, _, remote := setup(t)
	done := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "hold"})
			done <- err
		}()
	}
	for range 4 {
		<-gen.entered
	}
	stopped := make(chan struct{})
	go func() { srv.GracefulStop(); close(stopped) }()
	close(gen.release)
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	<-stopped
}
