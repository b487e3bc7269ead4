package taskspecgrpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// scripted is a taskspec.Generator whose behaviour the caller picks through
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
	band, signals, _ := taskspec.DeriveDifficulty(taskspec.DifficultyInputs{NodeCount: 2, EdgeCount: 3, Cyclomatic: 2})
	name, _ := taskspec.LanguageString(lang)
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
	case "long", "huge":
		spec := validScripted(s.lang, opts.GetTemplateId())
		spec.Prompt = scriptedPrompt(opts.GetTemplateId())
		return spec, nil
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

// scriptedPrompt is the prompt of the "long" script, 5 MB (more than
// gRPC's default limit of 4 MiB, valid), and of "huge", 20 MB (over the
// document limit: TS107).
func scriptedPrompt(template string) string {
	if template == "huge" {
		return strings.Repeat("x", 20_000_000)
	}
	return strings.Repeat("x", 5_000_000)
}

// serveLoopback serves reg on 127.0.0.1 and returns a client connection.
func serveLoopback(t *testing.T, reg *taskspec.Registry) (*grpc.Server, *grpc.ClientConn) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(GRPCServerOptions()...)
	RegisterGeneratorServiceServer(srv, NewGeneratorServer(reg))
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

func setup(t *testing.T) (*scripted, *grpc.Server, *grpc.ClientConn, taskspec.Generator) {
	t.Helper()
	gen := newScripted(taskspecv1.Language_LANGUAGE_GO)
	reg := taskspec.NewRegistry()
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
	reg := taskspec.NewRegistry()
	if err := reg.Register(remote); err != nil {
		t.Fatal(err)
	}
	gen, _ := reg.Lookup(taskspecv1.Language_LANGUAGE_GO)
	spec, err := gen.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "t-7"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.GetTaskId() != "scripted-go-t-7" || taskspec.Validate(spec) != nil {
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
		{"invalid", codes.FailedPrecondition, `generator for language "go" returned an invalid task spec: task_id: task_id is required; verification.test_cmd: verification.test_cmd is required`},
		{"wrong-language", codes.FailedPrecondition, `generator for language "go" returned a task spec for language "typescript", not "go"`},
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
	client := NewGeneratorServiceClient(conn)
	for lang, want := range map[taskspecv1.Language]string{0: "language is required", 99: "language 99 is not defined in taskspec.v1.Language"} {
		_, err := client.Generate(context.Background(), &taskspecv1.GenerateRequest{Language: lang})
		if st := status.Convert(err); st.Code() != codes.InvalidArgument || st.Message() != want {
			t.Errorf("language %d: got %v", lang, st)
		}
		// The problem travels as status details, and NewRemoteGenerator
		// turns it back into a *taskspec.ValidationError.
		_, err = NewRemoteGenerator(conn, lang).Generate(context.Background(), nil)
		var invalid *taskspec.ValidationError
		if !errors.As(err, &invalid) || status.Code(err) != codes.InvalidArgument ||
			fmt.Sprint(invalid.Violations) != fmt.Sprint([]taskspec.Violation{{FieldPath: "language", Message: want, Code: "TS103", Severity: "error"}}) {
			t.Errorf("language %d: got %v %#v", lang, err, invalid)
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

// problemsOf returns the problems err carries as a *taskspec.ValidationError,
// failing the test when it is none or its status is not code.
func problemsOf(t *testing.T, err error, code codes.Code) []taskspec.Violation {
	t.Helper()
	var re *RemoteError
	var invalid *taskspec.ValidationError
	if !errors.As(err, &re) || !errors.As(err, &invalid) {
		t.Fatalf("got %T %v, want a *RemoteError that unwraps to a *ValidationError", err, err)
	}
	if status.Code(err) != code || re.Code != code {
		t.Fatalf("got %v, want %v", status.Code(err), code)
	}
	if fmt.Sprint(invalid.Violations) != fmt.Sprint(re.Violations) {
		t.Fatalf("taskspec.ValidationError %v, RemoteError %v", invalid.Violations, re.Violations)
	}
	return invalid.Violations
}

func TestRemoteProblemsArriveAsAValidationError(t *testing.T) {
	_, _, _, remote := setup(t)
	invalid := validScripted(taskspecv1.Language_LANGUAGE_GO, "invalid")
	invalid.TaskId = " "
	invalid.Verification.TestCmd = nil
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "invalid"})
	got := problemsOf(t, err, codes.FailedPrecondition)
	if want := taskspec.Violations(invalid); len(want) != 2 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	_, err = remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "wrong-language"})
	got = problemsOf(t, err, codes.FailedPrecondition)
	want := []taskspec.Violation{{FieldPath: "language", Message: `language "typescript" is not "go", the language asked for`, Code: "TS103", Severity: "error"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestRemoteMessageSize(t *testing.T) {
	_, _, _, remote := setup(t)
	spec, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "long"})
	if err != nil || spec.GetPrompt() != scriptedPrompt("long") {
		t.Fatalf("a 5 MB prompt: %d bytes, %v", len(spec.GetPrompt()), err)
	}
	huge := validScripted(taskspecv1.Language_LANGUAGE_GO, "huge")
	huge.Prompt = scriptedPrompt("huge")
	want := taskspec.Violations(huge)
	_, err = remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "huge"})
	got := problemsOf(t, err, codes.FailedPrecondition)
	if len(want) != 1 || want[0].Code != "TS107" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
	if !strings.Contains(err.Error(), fmt.Sprint(taskspec.MaxDocumentBytes)) {
		t.Errorf("%v does not name the limit", err)
	}
}

// oversized is a server that breaks the contract: it sends a spec over the
// document limit, unchecked.
type oversized struct {
	UnimplementedGeneratorServiceServer
}

func (oversized) Generate(context.Context, *taskspecv1.GenerateRequest) (*taskspecv1.GenerateResponse, error) {
	spec := validScripted(taskspecv1.Language_LANGUAGE_GO, "huge")
	spec.Prompt = scriptedPrompt("huge")
	return &taskspecv1.GenerateResponse{TaskSpec: spec}, nil
}

func TestRemoteOverTheLimitIsNoRetry(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.MaxSendMsgSize(64 << 20))
	RegisterGeneratorServiceServer(srv, oversized{})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
	limit := fmt.Sprintf("over the limit of %d bytes (the task spec document limit of %d bytes plus 64 KiB)", taskspec.MaxDocumentBytes+64<<10, taskspec.MaxDocumentBytes)
	// Received: the server sent more than the contract allows.
	_, err = remote.Generate(context.Background(), &taskspecv1.GenerateOptions{})
	code, msg := remoteCode(t, err)
	if code != codes.FailedPrecondition || !strings.HasPrefix(msg, "a message of 2000") || !strings.HasSuffix(msg, limit) {
		t.Errorf("received: got %v %q", code, msg)
	}
	// Sent: this client's own request is over the limit.
	_, err = remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: strings.Repeat("x", taskspec.MaxDocumentBytes+64<<10)})
	code, msg = remoteCode(t, err)
	if code != codes.FailedPrecondition || !strings.HasPrefix(msg, "a message of 168") || !strings.HasSuffix(msg, limit) {
		t.Errorf("sent: got %v %q", code, msg)
	}
}

// careless is a server that breaks the contract: it sends an invalid spec.
type careless struct {
	UnimplementedGeneratorServiceServer
}

func (careless) Generate(context.Context, *taskspecv1.GenerateRequest) (*taskspecv1.GenerateResponse, error) {
	spec := validScripted(taskspecv1.Language_LANGUAGE_GO, "x")
	spec.Prompt = ""
	return &taskspecv1.GenerateResponse{TaskSpec: spec}, nil
}

func TestRemoteClientValidatesWhatAServerReturns(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	RegisterGeneratorServiceServer(srv, careless{})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).Generate(context.Background(), nil)
	got := problemsOf(t, err, codes.FailedPrecondition)
	if fmt.Sprint(got) != fmt.Sprint([]taskspec.Violation{{FieldPath: "prompt", Message: "prompt is required", Code: "TS101", Severity: "error"}}) {
		t.Errorf("got %#v", got)
	}
	if _, msg := remoteCode(t, err); msg != "server returned an invalid task spec: prompt: prompt is required" {
		t.Errorf("got %q", msg)
	}
}

// front is a Go generator that calls another server's, as a chain does.
type front struct{ back taskspec.Generator }

func (front) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_PYTHON }

func (f front) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	return f.back.Generate(ctx, opts)
}

func TestRemoteProblemsArePassedOnThroughAChain(t *testing.T) {
	_, _, _, back := setup(t)
	remote := NewRemoteGenerator(serveWith(t, front{back}), taskspecv1.Language_LANGUAGE_PYTHON)
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "invalid"})
	got := problemsOf(t, err, codes.FailedPrecondition)
	if len(got) != 2 || got[0].Code != "TS101" || got[1].FieldPath != "verification.test_cmd" {
		t.Errorf("got %#v", got)
	}
	// A RemoteError made here, with no status, carries its problems too.
	re := &RemoteError{Code: codes.FailedPrecondition, Message: "m", Violations: got}
	if st := re.GRPCStatus(); len(st.Details()) != 1 || fmt.Sprint(remoteError(0, st.Err()).Violations) != fmt.Sprint(got) {
		t.Errorf("got %v", st.Details())
	}
}

func TestTheProblemsOfOneStatusAreBounded(t *testing.T) {
	// The same case as the Python server's test: trailers stay within a
	// C-core client's 8 KiB of metadata, and both servers keep the same.
	many := make([]taskspec.Violation, 40)
	for i := range many {
		many[i] = taskspec.Violation{FieldPath: fmt.Sprintf("f%d", i), Message: strings.Repeat("é", 600), Code: "TS101", Severity: "error"}
	}
	kept, left := statusProblems(many)
	if len(kept) != 3 || left != 37 {
		t.Fatalf("kept %d, left %d", len(kept), left)
	}
	for _, v := range kept {
		if v.Message != strings.Repeat("é", 256) {
			t.Fatalf("message of %d bytes", len(v.Message))
		}
	}
	if text := listProblems(kept, left); !strings.HasSuffix(text, "é (and 37 more problems)") {
		t.Errorf("got %q", text)
	}
	if text := listProblems(kept[:1], 1); !strings.HasSuffix(text, "é (and 1 more problem)") {
		t.Errorf("got %q", text)
	}
	if one, left := statusProblems(many[:1]); len(one) != 1 || left != 0 || one[0] != kept[0] {
		t.Errorf("got %v %d", one, left)
	}
	// A string that is not UTF-8 (proto strings must be) is mended first.
	bad, _ := statusProblems([]taskspec.Violation{{FieldPath: "difficulty_signals[\"\xff\"]", Message: "m"}})
	if bad[0].FieldPath != "difficulty_signals[\"\uFFFD\"]" {
		t.Errorf("got %q", bad[0].FieldPath)
	}
}
