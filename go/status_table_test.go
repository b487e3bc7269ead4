package taskspec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// statusTable reads tests/contract/grpc_status.json, which the Python
// server's tests read too.
func statusTable(t *testing.T) map[string][2]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "tests", "contract", "grpc_status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Statuses []struct{ Case, Code, Message string }
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Statuses) < 8 {
		t.Fatalf("%d statuses, %v", len(doc.Statuses), err)
	}
	out := map[string][2]string{}
	for _, s := range doc.Statuses {
		out[s.Case] = [2]string{s.Code, s.Message}
	}
	return out
}

// grpcName is a code as grpc.StatusCode names it in Python
// (codes.NotFound is NOT_FOUND).
func grpcName(c codes.Code) string {
	var b strings.Builder
	for i, r := range c.String() {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

func TestTheStatusTableIsWhatTheServerAnswers(t *testing.T) {
	table := statusTable(t)
	want := func(c string, values ...string) [2]string {
		entry, ok := table[c]
		if !ok {
			t.Fatalf("no case %q in the table", c)
		}
		r := strings.NewReplacer(append(values, "{language}", "go")...)
		return [2]string{entry[0], r.Replace(entry[1])}
	}
	seen := map[string]bool{}
	check := func(c string, err error, values ...string) {
		t.Helper()
		st := status.Convert(err)
		if got, w := [2]string{grpcName(st.Code()), st.Message()}, want(c, values...); got != w {
			t.Errorf("%s: got %q, want %q", c, got, w)
		}
		seen[c] = true
	}
	_, _, conn, remote := setup(t)
	client := taskspecv1.NewGeneratorServiceClient(conn)
	_, err := client.Generate(context.Background(), &taskspecv1.GenerateRequest{})
	check("language unspecified", err)
	_, err = client.Generate(context.Background(), &taskspecv1.GenerateRequest{Language: 99})
	check("language not defined", err)
	_, err = client.Generate(context.Background(), &taskspecv1.GenerateRequest{Language: taskspecv1.Language_LANGUAGE_PYTHON})
	check("no generator", err, "{language}", "python")
	for script, c := range map[string]string{"fail": "generator failed", "invalid": "invalid spec", "wrong-language": "wrong language"} {
		_, err := remote.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: script})
		check(c, err, "{error}", "scripted failure", "{other}", "typescript")
	}
	own := serveWith(t, &coded{})
	_, err = NewRemoteGenerator(own, taskspecv1.Language_LANGUAGE_PYTHON).Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "NotFound"})
	check("generator's own code", err, "{error}", `no template "NotFound"`)
	gen := &coded{release: make(chan struct{}), entered: make(chan struct{}, 1)}
	limited := NewRemoteGenerator(serveWith(t, gen, WithMaxConcurrentCalls(1)), taskspecv1.Language_LANGUAGE_PYTHON)
	done := make(chan struct{})
	go func() {
		_, _ = limited.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "block"})
		close(done)
	}()
	<-gen.entered
	_, err = limited.Generate(context.Background(), &taskspecv1.GenerateOptions{TemplateId: "NotFound"})
	check("too many calls", err, "{limit}", "1")
	close(gen.release)
	<-done
	if len(seen) != len(table) {
		t.Errorf("cases checked: %v; the table has %d", seen, len(table))
	}
}
