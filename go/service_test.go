package taskspec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
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
		"ExampleNewGeneratorServer": {"net.Listen", "grpc.NewServer", "taskspec.GRPCServerOptions", "taskspec.NewGeneratorServer",
			"taskspec.RegisterHealth", "Shutdown", "GracefulStop", "Stop"},
		"ExampleGRPCServerOptions": {"net.Listen", "grpc.NewServer", "taskspec.GRPCServerOptions", "GracefulStop"},
		"ExampleGRPCDialOptions":   {"net.Listen", "taskspec.GRPCDialOptions", "grpc.NewClient", "GracefulStop"},
		"ExampleRegisterHealth":    {"net.Listen", "taskspec.RegisterHealth", "Shutdown", "GracefulStop"},
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
		Level, Msg, Panic, Stack string
	}
	if err := json.Unmarshal(logs.Bytes(), &entry); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if entry.Level != "ERROR" || entry.Msg != `generator for language "go" panicked` || entry.Panic != "generator bug" {
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
	conn := serveWith(t, gen, WithDefaultTimeout(100*time.Millisecond), WithMaxConcurrentCalls(1))
	remote := NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO)
	bound := time.AfterFunc(5*time.Second, func() { close(gen.release) }) // no test hangs
	defer bound.Stop()

	start := time.Now()
	_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the call took %v, past its deadline of 100ms", took)
	}
	if code, _ := remoteCode(t, err); code != codes.DeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v", err)
	}

	// The runaway generator still holds the only slot.
	if len(gen.running) != 1 {
		t.Fatalf("%d generators running, want the runaway one", len(gen.running))
	}
	_, err = remote.Generate(context.Background(), &taskspecv1.GenerateOptions{})
	if code, _ := remoteCode(t, err); code != codes.ResourceExhausted {
		t.Errorf("a call while the runaway generator runs: %v", err)
	}

	// Once it returns, the slot is free again.
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
			t.Fatalf("after the generator returned: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
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
		{"task_spec_version: 1\ntaskid: x\n", new(*DecodeError)},
		{"task_spec_version: 1\n", new(*ValidationError)},
	} {
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, parseErr := ParseYAML([]byte(tc.text))
		for name, load := range map[string]func() error{
			"Load":   func() error { _, err := Load(path); return err },
			"LoadFS": func() error { _, err := LoadFS(os.DirFS(dir), "taskspec.yaml"); return err },
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
	big := strings.Repeat("#", MaxDocumentBytes+10)
	_, want := ParseYAML([]byte(big[:MaxDocumentBytes+1]))
	if _, err := Read(strings.NewReader(big)); err == nil || err.Error() != want.Error() {
		t.Errorf("Read(big) = %v, want %v", err, want)
	}
	if _, err := LoadFS(fstest.MapFS{"big.yaml": {Data: []byte(big)}}, "big.yaml"); err == nil || err.Error() != "big.yaml: "+want.Error() {
		t.Errorf("LoadFS(big) = %v", err)
	}
	// An endless reader costs a bounded read.
	if _, err := Read(io.MultiReader(strings.NewReader("# "), endless{})); err == nil || err.Error() != want.Error() {
		t.Errorf("Read(endless) = %v", err)
	}
	oops := errors.New("oops")
	if _, err := Read(iotest.ErrReader(oops)); !errors.Is(err, oops) {
		t.Errorf("Read(failing) = %v", err)
	}
	if _, err := LoadFS(fstest.MapFS{}, "missing.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFS(missing) = %v", err)
	}
	if _, err := LoadFS(fstest.MapFS{"d/x.yaml": {}}, "d"); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "d: not a regular file (a directory)") {
		t.Errorf("LoadFS(dir) = %v", err)
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
	var reg *Registry
	if g, ok := reg.Lookup(taskspecv1.Language_LANGUAGE_GO); g != nil || ok {
		t.Errorf("Lookup = %v %v", g, ok)
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
	reg = NewRegistry()
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

// zeroErrors holds the zero value of every exported error type.
var zeroErrors = map[string]error{
	"ArtifactPathError": &ArtifactPathError{},
	"DecodeError":       &DecodeError{},
	"EnumError":         &EnumError{},
	"RemoteError":       &RemoteError{},
	"StrictError":       &StrictError{},
	"ValidationError":   &ValidationError{},
	"WriteError":        &WriteError{},
}

func TestTheZeroValueOfEveryErrorTypeIsUsable(t *testing.T) {
	// Every exported type with an Error method is in zeroErrors.
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name == "taskspec" {
				files = append(files, f)
			}
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/taskspec/taskspec/go", doc.AllMethods)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range pkg.Types {
		for _, m := range typ.Methods {
			if m.Name == "Error" && zeroErrors[typ.Name] == nil {
				t.Errorf("%s is an error type with no zero value in zeroErrors", typ.Name)
			}
		}
	}

	for name, zero := range zeroErrors {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			text := zero.Error()
			if !strings.HasPrefix(text, errPrefix) || len(text) <= len(errPrefix) {
				t.Errorf("%s{}.Error() = %q", name, text)
			}
			if u, ok := zero.(interface{ Unwrap() error }); ok {
				if inner := u.Unwrap(); inner != nil {
					t.Errorf("%s{}.Unwrap() = %v", name, inner)
				}
			}
			if g, ok := zero.(interface{ GRPCStatus() *status.Status }); ok {
				_ = g.GRPCStatus().Err()
			}
		}()
	}
}
