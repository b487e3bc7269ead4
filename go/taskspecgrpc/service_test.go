package taskspecgrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestTheGRPCExamplesShowTheServerSetup holds the server's Examples to
// what a service owner copies: the listener, the server with its message
// limits, the health service and the shutdown, written out rather than
// hidden in a helper of the test file.
func TestTheGRPCExamplesShowTheServerSetup(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example_grpc_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"ExampleNewGeneratorServer": {"net.Listen", "grpc.NewServer", "taskspecgrpc.GRPCServerOptions", "taskspecgrpc.NewGeneratorServer",
			"taskspecgrpc.RegisterHealth", "Shutdown", "GracefulStop", "Stop"},
		"ExampleGRPCServerOptions": {"net.Listen", "grpc.NewServer", "taskspecgrpc.GRPCServerOptions", "GracefulStop"},
		"ExampleGRPCDialOptions":   {"net.Listen", "taskspecgrpc.GRPCDialOptions", "grpc.NewClient", "GracefulStop"},
		"ExampleRegisterHealth":    {"net.Listen", "taskspecgrpc.RegisterHealth", "Shutdown", "GracefulStop"},
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || want[fn.Name.Name] == nil {
			continue
		}
		calls := map[string]bool{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					calls[fun.Name] = true
				case *ast.SelectorExpr:
					calls[fun.Sel.Name] = true
					if x, ok := fun.X.(*ast.Ident); ok {
						calls[x.Name+"."+fun.Sel.Name] = true
					}
				}
			}
			return true
		})
		for _, name := range want[fn.Name.Name] {
			if !calls[name] {
				t.Errorf("%s does not call %s", fn.Name.Name, name)
			}
		}
		if calls["serve"] {
			t.Errorf("%s calls the test file's serve helper instead of showing the steps", fn.Name.Name)
		}
		delete(want, fn.Name.Name)
	}
	for name := range want {
		t.Errorf("%s is missing", name)
	}
}

// panicking is a generator that panics in a named function, so that its
// stack can be recognised in the log.
type panicking struct{}

func (panicking) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (panicking) Generate(context.Context, *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	panicInTheGenerator()
	return nil, nil
}

func panicInTheGenerator() { panic("generator bug") }

func TestAGeneratorPanicIsLoggedWithItsStack(t *testing.T) {
	var logs bytes.Buffer
	conn := serveWith(t, panicking{}, WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	_, err := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).Generate(context.Background(), &taskspecv1.GenerateOptions{})
	if code, msg := remoteCode(t, err); code != codes.Internal || msg != `generator for language "go" failed: panic: generator bug` {
		t.Errorf("got %v %q", code, msg)
	}
	var entry struct {
		Level, Msg, Language, Panic, Stack string
		Elapsed                            *int64
	}
	if err := json.Unmarshal(logs.Bytes(), &entry); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if entry.Level != "ERROR" || entry.Msg != "generator panicked" || entry.Language != "go" ||
		entry.Panic != "generator bug" || entry.Elapsed == nil || *entry.Elapsed < 0 {
		t.Errorf("log entry %+v", entry)
	}
	for _, frame := range []string{"runtime/debug.Stack", "panicInTheGenerator", "safeGenerate"} {
		if !strings.Contains(entry.Stack, frame) {
			t.Errorf("the logged stack has no %s:\n%s", frame, entry.Stack)
		}
	}
}

// deaf is a generator that ignores its context: it returns a valid spec
// once release is closed, however long that takes.
type deaf struct {
	release chan struct{}
	running chan struct{}
}

func (d *deaf) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (d *deaf) Generate(_ context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	d.running <- struct{}{}
	defer func() { <-d.running }()
	<-d.release
	return validScripted(taskspecv1.Language_LANGUAGE_GO, opts.GetTemplateId()), nil
}

func TestTheDeadlineAnswersWhenTheGeneratorIgnoresIt(t *testing.T) {
	gen := &deaf{release: make(chan struct{}), running: make(chan struct{}, 8)}
	var logs bytes.Buffer
	conn := serveWith(t, gen, WithDefaultTimeout(100*time.Millisecond), WithMaxConcurrentCalls(1),
		WithMaxAbandonedCalls(2), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
	bound := time.AfterFunc(5*time.Second, func() { close(gen.release) }) // no test hangs
	defer bound.Stop()

	// Two calls are answered at their deadline, one after the other: each
	// frees its slot when it is answered, and leaves its generator running.
	for i := range 2 {
		start := time.Now()
		_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{})
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("call %d took %v, past its deadline of 100ms", i, took)
		}
		if code, _ := remoteCode(t, err); code != codes.DeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("call %d: got %v", i, err)
		}
	}
	if len(gen.running) != 2 {
		t.Fatalf("%d generators running, want the two abandoned ones", len(gen.running))
	}
	if !strings.Contains(logs.String(), `msg="generator abandoned" language=go`) ||
		!strings.Contains(logs.String(), "abandoned=2 limit=2") {
		t.Errorf("the abandoned generators were not logged: %q", logs.String())
	}

	// With two abandoned generators running, the server is at its limit.
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{})
	if code, msg := remoteCode(t, err); code != codes.ResourceExhausted ||
		msg != "the server has 2 generators still running after their calls were answered, its limit; try again later" {
		t.Errorf("a call while two abandoned generators run: %v", err)
	}

	// Once they return, calls are taken again.
	if bound.Stop() {
		close(gen.release)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		spec, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "after"})
		if err == nil {
			if spec.GetTaskId() != "scripted-go-after" {
				t.Errorf("got %v", spec)
			}
			break
		}
		if status.Code(err) != codes.ResourceExhausted || time.Now().After(deadline) {
			t.Fatalf("after the generators returned: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), `msg="abandoned generator returned" language=go`) {
		t.Errorf("the abandoned generators' return was not logged: %q", logs.String())
	}
}

// wrapping is a generator that fails with an error wrapping a context
// error of its own (a collaborator's call that timed out), the call's
// context still live.
type wrapping struct{}

func (wrapping) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (wrapping) Generate(_ context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	if opts.GetTemplateId() == "canceled" {
		return nil, fmt.Errorf("reading the graph: %w", context.Canceled)
	}
	return nil, fmt.Errorf("reading the graph: %w", context.DeadlineExceeded)
}

func TestAGeneratorErrorWrappingAContextErrorKeepsItsCode(t *testing.T) {
	conn := serveWith(t, wrapping{}, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
	for template, want := range map[string]struct {
		code    codes.Code
		message string
	}{
		"deadline": {codes.DeadlineExceeded, "reading the graph: context deadline exceeded"},
		"canceled": {codes.Canceled, "reading the graph: context canceled"},
	} {
		_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: template})
		if code, msg := remoteCode(t, err); code != want.code || msg != want.message {
			t.Errorf("%s: got %v %q, want %v %q", template, code, msg, want.code, want.message)
		}
	}
}

func TestLoadErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taskspec.yaml")
	for _, tc := range []struct {
		text   string
		target any
	}{
		{"task_spec_version: 1\ntaskid: x\n", new(*taskspec.DecodeError)},
		{"task_spec_version: 1\n", new(*taskspec.ValidationError)},
	} {
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, parseErr := taskspec.ParseYAML([]byte(tc.text))
		for name, load := range map[string]func() error{
			"Load":   func() error { _, err := taskspec.Load(path); return err },
			"LoadFS": func() error { _, err := taskspec.LoadFS(os.DirFS(dir), "taskspec.yaml"); return err },
		} {
			err := load()
			want := filepath.Base(path)
			if name == "Load" {
				want = path
			}
			if err == nil || err.Error() != want+": "+parseErr.Error() {
				t.Errorf("%s(%q) = %v, want %q", name, tc.text, err, want+": "+parseErr.Error())
			}
			if !errors.As(err, tc.target) {
				t.Errorf("%s(%q): errors.As(%T) fails", name, tc.text, tc.target)
			}
		}
	}
}

func TestLoadFSAndReadAreBounded(t *testing.T) {
	big := strings.Repeat("#", taskspec.MaxDocumentBytes+10)
	_, want := taskspec.ParseYAML([]byte(big[:taskspec.MaxDocumentBytes+1]))
	if _, err := taskspec.Read(strings.NewReader(big)); err == nil || err.Error() != want.Error() {
		t.Errorf("taskspec.Read(big) = %v, want %v", err, want)
	}
	if _, err := taskspec.LoadFS(fstest.MapFS{"big.yaml": {Data: []byte(big)}}, "big.yaml"); err == nil || err.Error() != "big.yaml: "+want.Error() {
		t.Errorf("taskspec.LoadFS(big) = %v", err)
	}
	// An endless reader costs a bounded read.
	if _, err := taskspec.Read(io.MultiReader(strings.NewReader("# "), endless{})); err == nil || err.Error() != want.Error() {
		t.Errorf("taskspec.Read(endless) = %v", err)
	}
	oops := errors.New("oops")
	if _, err := taskspec.Read(iotest.ErrReader(oops)); !errors.Is(err, oops) {
		t.Errorf("taskspec.Read(failing) = %v", err)
	}
	if _, err := taskspec.LoadFS(fstest.MapFS{}, "missing.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("taskspec.LoadFS(missing) = %v", err)
	}
	if _, err := taskspec.LoadFS(fstest.MapFS{"d/x.yaml": {}}, "d"); !errors.Is(err, taskspec.ErrNotRegular) || !strings.Contains(err.Error(), "d: not a regular file (a directory)") {
		t.Errorf("taskspec.LoadFS(dir) = %v", err)
	}
}

// endless is a reader of '#' that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	return len(p), nil
}

func TestANilRegistryIsEmpty(t *testing.T) {
	var reg *taskspec.Registry
	if g, ok := reg.Lookup(taskspecv1.Language_LANGUAGE_GO); g != nil || ok {
		t.Errorf("taskspec.Lookup = %v %v", g, ok)
	}
	if langs := reg.Languages(); len(langs) != 0 {
		t.Errorf("Languages = %v", langs)
	}
	if err := reg.Register(wrapping{}); err == nil || err.Error() != "taskspec: cannot register generator in a nil registry" {
		t.Errorf("Register = %v", err)
	}

	srv := NewGeneratorServer(nil)
	_, err := srv.Generate(context.Background(), &taskspecv1.GenerateRequest{Language: taskspecv1.Language_LANGUAGE_GO})
	if st := status.Convert(err); st.Code() != codes.NotFound || st.Message() != `no generator for language "go"` {
		t.Errorf("Generate = %v", err)
	}
	resp, err := srv.ListLanguages(context.Background(), &taskspecv1.ListLanguagesRequest{})
	if err != nil || len(resp.GetLanguages()) != 0 {
		t.Errorf("ListLanguages = %v %v", resp, err)
	}

	// WithLogger(nil) keeps slog.Default(), rather than panicking at the
	// first line logged.
	reg = taskspec.NewRegistry()
	if err := reg.Register(wrapping{}); err != nil {
		t.Fatal(err)
	}
	_, err = NewGeneratorServer(reg, WithLogger(nil)).Generate(context.Background(), &taskspecv1.GenerateRequest{
		Language: taskspecv1.Language_LANGUAGE_GO, Options: &taskspecv1.GenerateOptions{TemplateId: "canceled"},
	})
	if status.Code(err) != codes.Canceled {
		t.Errorf("Generate with WithLogger(nil) = %v", err)
	}
}

// The zero RemoteError, the one error type of this package, is usable:
// its text has the library's prefix, and it unwraps to nothing and gives
// a status.
func TestTheZeroRemoteErrorIsUsable(t *testing.T) {
	zero := &RemoteError{}
	if text := zero.Error(); !strings.HasPrefix(text, errPrefix) || len(text) <= len(errPrefix) {
		t.Errorf("RemoteError{}.Error() = %q", text)
	}
	if inner := zero.Unwrap(); inner != nil {
		t.Errorf("RemoteError{}.Unwrap() = %v", inner)
	}
	if st := zero.GRPCStatus(); st == nil || st.Code() != codes.OK {
		t.Errorf("RemoteError{}.GRPCStatus() = %v", st)
	}
}
