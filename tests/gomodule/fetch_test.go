// Package gomodule tests the Go modules of this repository as a service
// gets them: from a module proxy, at the version being released, with no
// replace directive and no workspace.
//
// The proxy is built on disk from the working tree with golang.org/x/mod's
// zip package, the same files `go mod download` would unpack from a
// tagged release. A scratch module outside the repository then runs the
// README's install command against it and builds and runs programs that
// use the library.
package gomodule

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// modules are the directories of the modules a service fetches: the stubs,
// the core library and its gRPC half.
var modules = []string{"gen/go", "go", "go/taskspecgrpc"}

// coreBinaryLimit is the most the hello-world program below may weigh,
// unstripped: protobuf with protojson and descriptorpb and yaml.v3 come
// to about 6.4 MB on their own, so a core that links no gRPC or net/http
// stays under it.
const coreBinaryLimit = 8_000_000

// version is the version being released: pyproject.toml's, with a "v".
func version(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "pyproject.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version = "([^"]+)"$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("pyproject.toml has no version")
	}
	return "v" + string(m[1])
}

// readmeCommand is the README's command that adds the core library to a
// service: the one line of its Go install block that starts with
// "go get github.com/taskspec/taskspec/go@".
func readmeCommand(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "go get github.com/taskspec/taskspec/go@") {
			found = append(found, line)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the README has %d lines that start with `go get github.com/taskspec/taskspec/go@`, want 1: %q", len(found), found)
	}
	return strings.Fields(found[0])
}

// buildProxy writes a GOPROXY directory holding each module of modules at
// v, zipped from the working tree, and returns its file:// URL.
func buildProxy(t *testing.T, v string) string {
	t.Helper()
	dir := t.TempDir()
	for _, rel := range modules {
		src := filepath.Join(root, rel)
		gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		path := modfile.ModulePath(gomod)
		escaped, err := module.EscapePath(path)
		if err != nil {
			t.Fatal(err)
		}
		at := filepath.Join(dir, filepath.FromSlash(escaped), "@v")
		if err := os.MkdirAll(at, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(at, v+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if err := zip.CreateFromDir(f, module.Version{Path: path, Version: v}, src); err != nil {
			t.Fatalf("zipping %s: %v", rel, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		info, _ := json.Marshal(map[string]any{"Version": v, "Time": time.Now().UTC().Format(time.RFC3339)})
		for name, data := range map[string][]byte{v + ".mod": gomod, v + ".info": info, "list": []byte(v + "\n")} {
			if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return "file://" + filepath.ToSlash(dir)
}

// scratch is a module outside the repository whose go commands fetch this
// repository's modules from proxy only, and everything else from the
// module cache this machine already has, or failing that from the proxy
// go is configured with. Its module cache is its own, so that the zips
// made here never enter the machine's.
type scratch struct {
	t   *testing.T
	dir string
	env []string
}

func newScratch(t *testing.T, proxy string) *scratch {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(out))
	cache, upstream := fields[0], fields[1]
	dir := t.TempDir()
	proxies := []string{proxy, "file://" + filepath.ToSlash(filepath.Join(cache, "cache", "download"))}
	if upstream != "off" {
		proxies = append(proxies, upstream)
	}
	env := append(os.Environ(),
		"GOPROXY="+strings.Join(proxies, ","),
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"),
		"GOFLAGS=-modcacherw",
		"GOWORK=off",
		"GOSUMDB=off", // the checksum database cannot know zips made from a working tree
		"GOTOOLCHAIN=local",
	)
	s := &scratch{t: t, dir: dir, env: env}
	s.write("go.mod", "module example.com/service\n\ngo 1.23\n")
	return s
}

func (s *scratch) write(name, text string) {
	s.t.Helper()
	path := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// run runs a command in the scratch module and returns its standard output.
func (s *scratch) run(name string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = s.dir, s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// requirements returns the module paths and versions go.mod requires.
func requirements(t *testing.T, gomod []byte) map[string]string {
	t.Helper()
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := map[string]string{}
	for _, r := range f.Require {
		reqs[r.Mod.Path] = r.Mod.Version
	}
	return reqs
}

const helloProgram = `package main

import (
	"bytes"
	"fmt"
	"log"
	"os"

	taskspec "github.com/taskspec/taskspec/go"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	spec, err := taskspec.ParseYAML(data)
	if err != nil {
		log.Fatal(err)
	}
	if err := taskspec.Validate(spec); err != nil {
		log.Fatal(err)
	}
	out, err := taskspec.MarshalYAML(spec)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec.GetTaskId(), spec.GetLanguage(), bytes.Contains(data, out))
}
`

// A service fetches the core library with the README's command, from a
// proxy that holds the release, with no replace directive: go resolves
// the stubs module at the same release, and the program parses, validates
// and marshals a spec. The binary links no gRPC and stays under the limit.
func TestAServiceFetchesTheCoreLibraryFromAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules from a proxy")
	}
	v := version(t)
	command := readmeCommand(t)
	if want := "github.com/taskspec/taskspec/go@" + v; command[len(command)-1] != want {
		t.Fatalf("the README installs %s, want %s (pyproject.toml's version)", command[len(command)-1], want)
	}
	s := newScratch(t, buildProxy(t, v))
	s.write("main.go", helloProgram)
	s.run(command[0], command[1:]...)
	s.run("go", "mod", "tidy")

	gomod, err := os.ReadFile(filepath.Join(s.dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := requirements(t, gomod)
	for _, path := range []string{"github.com/taskspec/taskspec/go", "github.com/taskspec/taskspec/gen/go"} {
		if reqs[path] != v {
			t.Errorf("the service's go.mod requires %s at %q, want %s:\n%s", path, reqs[path], v, gomod)
		}
	}
	if strings.Contains(string(gomod), "replace") {
		t.Errorf("the service's go.mod has a replace directive:\n%s", gomod)
	}
	for path := range reqs {
		if strings.HasPrefix(path, "google.golang.org/grpc") || strings.HasPrefix(path, "golang.org/x/net") {
			t.Errorf("the core library brought %s into the service's go.mod", path)
		}
	}

	s.run("go", "build", "-o", "hello", ".")
	example, err := filepath.Abs(filepath.Join(root, "examples", "go.taskspec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.run(filepath.Join(s.dir, "hello"), example), "kg-go-impl-mathx-gcd LANGUAGE_GO true\n"; got != want {
		t.Errorf("the program printed %q, want %q", got, want)
	}
	info, err := os.Stat(filepath.Join(s.dir, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hello-world binary: %d bytes", info.Size())
	if info.Size() > coreBinaryLimit {
		t.Errorf("the hello-world binary is %d bytes, over the limit of %d", info.Size(), coreBinaryLimit)
	}
}

const remoteProgram = `package main

import (
	"context"
	"fmt"
	"log"
	"net"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/go/taskspecgrpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type generator struct{}

func (generator) Language() taskspecv1.Language { return taskspecv1.Language_LANGUAGE_GO }

func (generator) Generate(_ context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	return &taskspecv1.TaskSpec{
		TaskSpecVersion: taskspec.CurrentTaskSpecVersion, TaskId: "kg-go-1",
		Language: taskspecv1.Language_LANGUAGE_GO, Difficulty: taskspecv1.Difficulty_DIFFICULTY_EASY,
		GeneratedFrom: &taskspecv1.GeneratedFrom{Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: opts.GetTemplateId()},
		Prompt:        "Implement it.",
		Verification:  &taskspecv1.Verification{TestCmd: []string{"go", "test", "./..."}},
	}, nil
}

func main() {
	reg := taskspec.NewRegistry()
	if err := reg.Register(generator{}); err != nil {
		log.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg))
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	spec, err := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_GO).
		Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "impl-pure-fn"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec.GetTaskId(), spec.GetGeneratedFrom().GetTemplateId())
}
`

// The gRPC half is fetched the same way, and works with the oldest gRPC
// its go.mod allows: minimal version selection picks exactly that version
// in a service that asks for no newer one.
func TestAServiceFetchesTheGRPCModuleFromAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules from a proxy")
	}
	v := version(t)
	gomod, err := os.ReadFile(filepath.Join(root, "go", "taskspecgrpc", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	pinned := requirements(t, gomod)["google.golang.org/grpc"]
	s := newScratch(t, buildProxy(t, v))
	s.write("main.go", remoteProgram)
	s.run("go", "get", "github.com/taskspec/taskspec/go/taskspecgrpc@"+v)
	s.run("go", "mod", "tidy")
	if got := strings.TrimSpace(s.run("go", "list", "-m", "-f", "{{.Version}}", "google.golang.org/grpc")); got != pinned {
		t.Errorf("the service builds with gRPC %s, want %s, the version go/taskspecgrpc/go.mod pins", got, pinned)
	}
	s.run("go", "build", "-o", "remote", ".")
	if got, want := s.run(filepath.Join(s.dir, "remote")), "kg-go-1 impl-pure-fn\n"; got != want {
		t.Errorf("the program printed %q, want %q", got, want)
	}
}

// Every module of the repository that requires another of its modules
// requires it at the version being released, and go.work points each such
// requirement at the working tree; the modules a service fetches are the
// ones go.work uses.
func TestTheModulesRequireEachOtherAtTheReleaseVersion(t *testing.T) {
	v := version(t)
	work, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", work, nil)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{} // module path -> directory
	for _, u := range wf.Use {
		gomod, err := os.ReadFile(filepath.Join(root, u.Path, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		used[modfile.ModulePath(gomod)] = filepath.Clean(u.Path)
	}
	for _, rel := range modules {
		if !slices.Contains(mapValues(used), filepath.Clean(rel)) {
			t.Errorf("go.work does not use %s", rel)
		}
	}
	replaced := map[string]string{}
	for _, r := range wf.Replace {
		if r.Old.Version != v {
			t.Errorf("go.work replaces %s at %s, want %s", r.Old.Path, r.Old.Version, v)
		}
		replaced[r.Old.Path] = filepath.Clean(r.New.Path)
	}
	required := map[string]bool{}
	for path, dir := range used {
		gomod, err := os.ReadFile(filepath.Join(root, dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		if f, _ := modfile.Parse("go.mod", gomod, nil); f != nil && len(f.Replace) > 0 {
			t.Errorf("%s/go.mod has a replace directive; go.work holds them", dir)
		}
		for req, at := range requirements(t, gomod) {
			if _, ours := used[req]; !ours {
				continue
			}
			required[req] = true
			if at != v {
				t.Errorf("%s requires %s at %s, want %s", path, req, at, v)
			}
		}
	}
	for req := range required {
		if replaced[req] != used[req] {
			t.Errorf("go.work replaces %s %s with %q, want %q", req, v, replaced[req], used[req])
		}
	}
	for path := range replaced {
		if !required[path] {
			t.Errorf("go.work replaces %s, which no module requires", path)
		}
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
