// Command taskspec-grpc-peer is the Go end of the cross-language
// GeneratorService tests (tests/test_remote_go.py): the hand-written Go
// library's server and client, driven by the Python test suite over
// loopback.
//
//	taskspec-grpc-peer serve
//
// serves a scripted Go generator (the same scripts as
// tests/remoteutil.py's ScriptedGenerator, chosen by the template id) on
// 127.0.0.1, on a port the system picks. It prints "listening on ADDR",
// then one JSON line per event the Python side checks ("entered" when a
// call reaches the generator, "ended" with what a "wait" call's context
// said), and stops gracefully when standard input closes, so it never
// outlives its test.
//
//	taskspec-grpc-peer call ADDR
//
// reads one JSON request a line from standard input, makes the call with
// NewRemoteGenerator (or the raw generated client for a language number
// the library would refuse to send) and writes one JSON result a line.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// waitBound is the longest a "wait" call blocks when nothing ends it.
const waitBound = 30 * time.Second

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "serve" {
		check(serve())
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "call" {
		check(call(os.Args[2]))
		return
	}
	fmt.Fprintln(os.Stderr, "usage: taskspec-grpc-peer serve | call ADDR")
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

type scripted struct{ out *events }

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
	switch template {
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
		s.out.emit(map[string]any{"event": "ended", "remaining": remaining, "done": ctx.Err() != nil})
		return nil, ctx.Err()
	}
	return valid(s.Language(), template), nil
}

func serve() error {
	out := &events{enc: json.NewEncoder(os.Stdout)}
	reg := taskspec.NewRegistry()
	if err := reg.Register(&scripted{out: out}); err != nil {
		return err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := grpc.NewServer()
	taskspecv1.RegisterGeneratorServiceServer(srv, taskspec.NewGeneratorServer(reg))
	out.mu.Lock()
	fmt.Printf("listening on %s\n", lis.Addr())
	out.mu.Unlock()
	go func() {
		_, _ = bufio.NewReader(os.Stdin).WriteTo(discard{})
		srv.GracefulStop()
	}()
	return srv.Serve(lis)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// request is one call of "call" mode. Language is the proto number; Raw
// sends it with the generated client, unchecked. Concurrent > 0 makes that
// many calls at once, with templates Template0, Template1, ...
type request struct {
	Language   int32  `json:"language"`
	Template   string `json:"template"`
	TimeoutMS  int    `json:"timeout_ms"`
	Raw        bool   `json:"raw"`
	Concurrent int    `json:"concurrent"`
}

type result struct {
	Code     string   `json:"code"`
	Message  string   `json:"message,omitempty"`
	TaskID   string   `json:"task_id,omitempty"`
	Template string   `json:"template,omitempty"`
	Failures []string `json:"failures,omitempty"`
}

func call(addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	in := bufio.NewScanner(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return err
		}
		if err := enc.Encode(do(conn, req)); err != nil {
			return err
		}
	}
	return in.Err()
}

func do(conn *grpc.ClientConn, req request) result {
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
		resp, err = taskspecv1.NewGeneratorServiceClient(conn).Generate(ctx, &taskspecv1.GenerateRequest{Language: lang, Options: opts})
		spec = resp.GetTaskSpec()
	} else {
		spec, err = taskspec.NewRemoteGenerator(conn, lang).Generate(ctx, opts)
		var re *taskspec.RemoteError
		if err != nil && !errors.As(err, &re) {
			return result{Code: "NOT_A_REMOTE_ERROR", Message: err.Error()}
		}
	}
	if err != nil {
		st := status.Convert(err)
		return result{Code: st.Code().String(), Message: st.Message()}
	}
	return result{Code: "OK", TaskID: spec.GetTaskId(), Template: spec.GetGeneratedFrom().GetTemplateId()}
}
