// Command taskspec-grpc-peer is the Go end of the cross-language
// GeneratorService tests (tests/test_remote_go.py): the hand-written Go
// library's server and client, driven by the Python test suite over
// loopback.
//
//	taskspec-grpc-peer serve [-max-concurrent-calls N] [-default-timeout D]
//
// serves a scripted Go generator (the same scripts as
// tests/remoteutil.py's ScriptedGenerator, chosen by the template id) on
// 127.0.0.1, on a port the system picks, with the standard health service
// (RegisterHealth) and the given server options (WithMaxConcurrentCalls,
// WithDefaultTimeout; the generator's log goes to standard error through
// WithLogger). It prints "listening on ADDR", then one JSON line per event
// the Python side checks ("entered" when a call reaches the generator,
// "ended" with what a "wait" call's context said). A "release" line on
// standard input lets "hold" calls return; it stops gracefully when
// standard input closes, so it never outlives its test.
//
//	taskspec-grpc-peer call ADDR
//
// reads one JSON request a line from standard input, makes the call with
// NewRemoteGenerator (or the raw generated client for a language number
// the library would refuse to send), ListLanguages or a health check, and
// writes one JSON result a line, at once, so the Python side can drive it
// a line at a time. A "background" call is started, answered "STARTED",
// and its result is reported by the next "wait" request.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/go/taskspecgrpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// waitBound is the longest a "wait" call blocks when nothing ends it.
const waitBound = 30 * time.Second

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "serve" {
		check(serve(os.Args[2:]))
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "call" {
		check(call(os.Args[2]))
		return
	}
	fmt.Fprintln(os.Stderr, "usage: taskspec-grpc-peer serve [-max-concurrent-calls N] [-default-timeout D] | call ADDR")
	os.Exit(2)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "taskspec-grpc-peer:", err)
		os.Exit(1)
	}
}

// events writes one JSON object a line, from any goroutine.
type events struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (e *events) emit(v map[string]any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = e.enc.Encode(v)
}

type scripted struct {
	out     *events
	release chan struct{} // closed by a "release" line: "hold" calls return
}

func (s *scripted) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func valid(lang taskspecv1.Language, template string) *taskspecv1.TaskSpec {
	band, signals, _ := taskspec.DeriveDifficulty(taskspec.DifficultyInputs{NodeCount: 2, EdgeCount: 3, Cyclomatic: 2})
	name, _ := taskspec.LanguageString(lang)
	id := template
	if id == "" {
		id = "ok"
	}
	return &taskspecv1.TaskSpec{
		TaskSpecVersion:   1,
		TaskId:            "scripted-" + name + "-" + id,
		Language:          lang,
		Difficulty:        band,
		DifficultySignals: signals,
		GeneratedFrom:     &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: template},
		Prompt:            "Implement the scripted task.",
		Verification:      &taskspecv1.Verification{TestCmd: []string{"go", "test", "./..."}},
	}
}

func (s *scripted) Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	template := opts.GetTemplateId()
	s.out.emit(map[string]any{"event": "entered", "template": template})
	var code codes.Code
	if code.UnmarshalJSON([]byte(strconv.Quote(template))) == nil && code != codes.OK {
		// NOT_FOUND, UNAVAILABLE, ...: the generator reports that code.
		return nil, status.Error(code, "scripted "+template)
	}
	switch template {
	case "hold":
		// Ignores cancellation, as a badly written generator would.
		select {
		case <-s.release:
		case <-time.After(waitBound):
		}
		return valid(s.Language(), template), nil
	case "fail":
		return nil, errors.New("scripted failure")
	case "panic":
		panic("scripted panic")
	case "invalid":
		spec := valid(s.Language(), template)
		spec.TaskId = " "
		spec.Verification.TestCmd = nil
		return spec, nil
	case "wrong-language":
		return valid(taskspecv1.Language_LANGUAGE_PYTHON, template), nil
	case "long", "huge":
		// 5 MB: more than gRPC's default limit, valid; 20 MB: over the
		// document limit (TS107).
		spec := valid(s.Language(), template)
		spec.Prompt = strings.Repeat("x", map[string]int{"long": 5_000_000, "huge": 20_000_000}[template])
		return spec, nil
	case "wait":
		deadline, has := ctx.Deadline()
		remaining := -1.0
		if has {
			remaining = time.Until(deadline).Seconds()
		}
		select {
		case <-ctx.Done():
		case <-time.After(waitBound):
		}
		s.out.emit(map[string]any{"event": "ended", "deadline": has, "remaining": remaining, "done": ctx.Err() != nil})
		return nil, ctx.Err()
	}
	return valid(s.Language(), template), nil
}

func serve(args []string) error {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	maxCalls := flags.Int("max-concurrent-calls", 0, "WithMaxConcurrentCalls (0: no limit)")
	timeout := flags.Duration("default-timeout", 0, "WithDefaultTimeout (0: none)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	out := &events{enc: json.NewEncoder(os.Stdout)}
	gen := &scripted{out: out, release: make(chan struct{})}
	reg := taskspec.NewRegistry()
	if err := reg.Register(gen); err != nil {
		return err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg,
		taskspecgrpc.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))),
		taskspecgrpc.WithMaxConcurrentCalls(*maxCalls),
		taskspecgrpc.WithDefaultTimeout(*timeout)))
	health := taskspecgrpc.RegisterHealth(srv)
	out.mu.Lock()
	fmt.Printf("listening on %s\n", lis.Addr())
	out.mu.Unlock()
	go func() {
		var once sync.Once
		release := func() { once.Do(func() { close(gen.release) }) }
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			if in.Text() == "release" {
				release()
			}
		}
		release()
		health.Shutdown()
		srv.GracefulStop()
	}()
	return srv.Serve(lis)
}

// request is one call of "call" mode. Op is "" (Generate), "languages"
// (the ListLanguages helper), "health" (a health check of the
// GeneratorService) or "wait" (the results of the background calls so
// far). Language is the proto number; Raw sends it with the generated
// client, unchecked. Concurrent > 0 makes that many calls at once, with
// templates Template0, Template1, ... Background starts the call and
// answers at once.
type request struct {
	Op         string `json:"op"`
	Language   int32  `json:"language"`
	Template   string `json:"template"`
	TimeoutMS  int    `json:"timeout_ms"`
	Raw        bool   `json:"raw"`
	Concurrent int    `json:"concurrent"`
	Background bool   `json:"background"`
}

// problem is a taskspec.Violation as the Python side compares it.
type problem struct {
	Code      taskspec.Code     `json:"code"`
	FieldPath string            `json:"field_path"`
	Line      int               `json:"line"`
	Column    int               `json:"column"`
	Message   string            `json:"message"`
	Hint      string            `json:"hint"`
	Severity  taskspec.Severity `json:"severity"`
}

// result is what a call ended with. Code is the gRPC code's Go name;
// Deadline and Canceled say whether errors.Is(err, context.DeadlineExceeded)
// and errors.Is(err, context.Canceled) hold; Problems, present only then,
// are the Violations of the *ValidationError the error unwraps to.
// PromptBytes is the length of a returned spec's prompt.
type result struct {
	Code        string    `json:"code"`
	Message     string    `json:"message,omitempty"`
	Problems    []problem `json:"problems,omitempty"`
	PromptBytes int       `json:"prompt_bytes,omitempty"`
	Deadline    bool      `json:"deadline,omitempty"`
	Canceled    bool      `json:"canceled,omitempty"`
	TaskID      string    `json:"task_id,omitempty"`
	Template    string    `json:"template,omitempty"`
	Failures    []string  `json:"failures,omitempty"`
	Languages   []int32   `json:"languages,omitempty"`
	Health      string    `json:"health,omitempty"`
	Results     []result  `json:"results,omitempty"`
}

func call(addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	in := bufio.NewScanner(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var background []result
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return err
		}
		var res result
		switch {
		case req.Op == "wait":
			wg.Wait()
			mu.Lock()
			res, background = result{Code: "OK", Results: background}, nil
			mu.Unlock()
		case req.Background:
			wg.Go(func() {
				r := do(conn, req)
				mu.Lock()
				background = append(background, r)
				mu.Unlock()
			})
			res = result{Code: "STARTED"}
		default:
			res = do(conn, req)
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	wg.Wait()
	return in.Err()
}

// failed is the result of a call that failed with err.
func failed(err error) result {
	st := status.Convert(err)
	res := result{
		Code:     st.Code().String(),
		Message:  st.Message(),
		Deadline: errors.Is(err, context.DeadlineExceeded),
		Canceled: errors.Is(err, context.Canceled),
	}
	var invalid *taskspec.ValidationError
	if errors.As(err, &invalid) {
		res.Problems = []problem{}
		for _, v := range invalid.Violations {
			res.Problems = append(res.Problems, problem{v.Code, v.FieldPath, v.Line, v.Column, v.Message, v.Hint, v.Severity})
		}
	}
	return res
}

func do(conn *grpc.ClientConn, req request) result {
	switch req.Op {
	case "languages", "health":
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if req.Op == "health" {
			resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: taskspecgrpc.GeneratorService_ServiceDesc.ServiceName})
			if err != nil {
				return failed(err)
			}
			return result{Code: "OK", Health: resp.GetStatus().String()}
		}
		langs, err := taskspecgrpc.ListLanguages(ctx, conn)
		if err != nil {
			return failed(err)
		}
		res := result{Code: "OK"}
		for _, l := range langs {
			res.Languages = append(res.Languages, int32(l))
		}
		return res
	}
	if req.Concurrent > 0 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failures []string
		for i := range req.Concurrent {
			wg.Go(func() {
				one := req
				one.Template = fmt.Sprintf("%s%d", req.Template, i)
				if r := once(conn, one); r.Code != "OK" || r.Template != one.Template {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %s %s", one.Template, r.Code, r.Message))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if failures != nil {
			return result{Code: "FAILED", Failures: failures}
		}
		return result{Code: "OK"}
	}
	return once(conn, req)
}

func once(conn *grpc.ClientConn, req request) result {
	ctx := context.Background()
	if req.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	lang := taskspecv1.Language(req.Language)
	opts := &taskspecv1.GenerateOptions{TemplateId: req.Template}
	var spec *taskspecv1.TaskSpec
	var err error
	if req.Raw {
		var resp *taskspecv1.GenerateResponse
		resp, err = taskspecgrpc.NewGeneratorServiceClient(conn).Generate(ctx, &taskspecv1.GenerateRequest{Language: lang, Options: opts})
		spec = resp.GetTaskSpec()
	} else {
		spec, err = taskspecgrpc.NewRemoteGenerator(conn, lang).Generate(ctx, opts)
		var re *taskspecgrpc.RemoteError
		if err != nil && !errors.As(err, &re) {
			return result{Code: "NOT_A_REMOTE_ERROR", Message: err.Error()}
		}
	}
	if err != nil {
		return failed(err)
	}
	return result{Code: "OK", TaskID: spec.GetTaskId(), Template: spec.GetGeneratedFrom().GetTemplateId(), PromptBytes: promptBytes(spec)}
}

// promptBytes is the length of a long prompt (over 4 MiB, gRPC's default
// limit), and 0 for the others, which the tests need not see.
func promptBytes(spec *taskspecv1.TaskSpec) int {
	if n := len(spec.GetPrompt()); n > 4<<20 {
		return n
	}
	return 0
}
