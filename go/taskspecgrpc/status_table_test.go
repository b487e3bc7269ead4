package taskspecgrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// tableProblem is one problem of a status in the table: the fields a
// status's details carry, with no position, hint or warning.
type tableProblem struct {
	Code      string `json:"code"`
	FieldPath string `json:"field_path"`
	Message   string `json:"message"`
}

// tableStatus is one case of the table.
type tableStatus struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Problems []tableProblem `json:"problems"`
}

// statusTable reads tests/contract/grpc_status.json, which the Python
// server's tests read too.
func statusTable(t *testing.T) map[string]tableStatus {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "tests", "contract", "grpc_status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Statuses []struct {
			Case string `json:"case"`
			tableStatus
		} `json:"statuses"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Statuses) < 8 {
		t.Fatalf("%d statuses, %v", len(doc.Statuses), err)
	}
	out := map[string]tableStatus{}
	for _, s := range doc.Statuses {
		if s.Problems == nil {
			t.Fatalf("%s: no problems list", s.Case)
		}
		out[s.Case] = s.tableStatus
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
	want := func(c string, values ...string) tableStatus {
		entry, ok := table[c]
		if !ok {
			t.Fatalf("no case %q in the table", c)
		}
		r := strings.NewReplacer(append(values, "{language}", "go")...)
		filled := tableStatus{Code: entry.Code, Message: r.Replace(entry.Message), Problems: []tableProblem{}}
		for _, p := range entry.Problems {
			filled.Problems = append(filled.Problems, tableProblem{p.Code, p.FieldPath, r.Replace(p.Message)})
		}
		return filled
	}
	seen := map[string]bool{}
	check := func(c string, err error, values ...string) {
		t.Helper()
		st := status.Convert(err)
		got := tableStatus{Code: grpcName(st.Code()), Message: st.Message(), Problems: []tableProblem{}}
		for _, d := range st.Details() {
			for _, p := range d.(*taskspecv1.Problems).GetProblems() {
				if p.GetLine() != 0 || p.GetColumn() != 0 || p.GetHint() != "" || p.GetSeverity() != taskspecv1.Severity_SEVERITY_ERROR {
					t.Errorf("%s: %v", c, p)
				}
				got.Problems = append(got.Problems, tableProblem{p.GetCode(), p.GetFieldPath(), p.GetMessage()})
			}
		}
		if w := want(c, values...); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: got %q, want %q", c, got, w)
		}
		seen[c] = true
	}
	_, _, conn, remote := setup(t)
	client := NewGeneratorServiceClient(conn)
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
	hung := &deaf{release: make(chan struct{}), running: make(chan struct{}, 2)}
	defer close(hung.release)
	abandoning := NewRemoteGenerator(serveWith(t, hung, WithMaxAbandonedCalls(1), WithDefaultTimeout(50*time.Millisecond)),
		taskspecv1.Language_LANGUAGE_GO)
	if _, err := abandoning.Generate(context.Background(), &taskspecv1.GenerateOptions{}); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("a call to a generator that ignores its deadline: %v", err)
	}
	_, err = abandoning.Generate(context.Background(), &taskspecv1.GenerateOptions{})
	check("too many abandoned calls", err, "{limit}", "1")
	if len(seen) != len(table) {
		t.Errorf("cases checked: %v; the table has %d", seen, len(table))
	}
}
