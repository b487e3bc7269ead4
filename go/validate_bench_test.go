package taskspec_test

import (
	"strings"
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// benchProse is prompt text as task generators write it: sentences with
// inline code, a ':' and a '#', a few characters beyond ASCII, bullets, and
// a fenced code block with tabs, in lines of about 88 columns.
var benchProse = strings.Join([]string{
	"Implement the function `mathx.GCD` in `mathx/gcd.go` so that the existing tests pass. It",
	"returns the greatest common divisor of its two arguments, and 0 when both are 0. The",
	"callers in `mathx/reduce.go` rely on GCD(a, 0) == |a| \u2014 do not special-case it.",
	"Note: the benchmark in gcd_bench_test.go runs 10\u00d7 more iterations than the tests.",
	"Issue #214 describes the original bug report, with a minimal reproduction.",
	"",
	"- Do not modify any existing *_test.go file.",
	"- The solution must satisfy: go test -race ./mathx/...",
	"",
	"```go",
	"func TestGCDZero(t *testing.T) {",
	"\tif got := GCD(0, 0); got != 0 {",
	"\t\tt.Fatalf(\"GCD(0, 0) = %d, want 0\", got)",
	"\t}",
	"}",
	"```",
	"",
}, "\n")

// benchSpec is a valid spec, the example's fields with a prose prompt, whose
// canonical YAML is size bytes, or a few bytes under.
func benchSpec(tb testing.TB, size int) *taskspecv1.TaskSpec {
	tb.Helper()
	spec := &taskspecv1.TaskSpec{
		TaskSpecVersion: 1, TaskId: "go-mathx-gcd-001",
		Language:          taskspecv1.Language_LANGUAGE_GO,
		Difficulty:        taskspecv1.Difficulty_DIFFICULTY_MEDIUM,
		DifficultySignals: map[string]int64{"involved_symbols": 3, "edge_count": 4, "cyclomatic_complexity": 5},
		GeneratedFrom: &taskspecv1.GeneratedFrom{
			Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: "implement-function",
			KgQuery: &taskspecv1.KGQuery{Intent: "implement", SeedSymbol: "mathx.GCD"},
		},
		SolutionArtifacts: []*taskspecv1.SolutionArtifact{{Path: "mathx/gcd.go", Role: "implementation"}},
		Verification: &taskspecv1.Verification{
			BuildCmd: []string{"go", "build", "./..."}, TestCmd: []string{"go", "test", "./mathx/..."}, TimeoutSeconds: 120,
		},
		Prompt: "x",
	}
	out, err := taskspec.MarshalYAML(spec)
	if err != nil {
		tb.Fatal(err)
	}
	// A literal block's line takes its 4 columns of indentation too.
	text := strings.Repeat(benchProse, (size-len(out))/len(benchProse)+1)
	for {
		spec.Prompt = strings.TrimSpace(text)
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			tb.Fatal(err)
		}
		if len(out) <= size {
			break
		}
		text = text[:strings.LastIndexByte(text[:len(text)-(len(out)-size)], '\n')]
	}
	if err := taskspec.Validate(spec); err != nil {
		tb.Fatal(err)
	}
	return spec
}

// BenchmarkValidate times Validate on valid specs whose canonical YAML is
// 1 KiB, 64 KiB, 1 MiB and 5 MiB: the rules, the UTF-8 check and the size
// check (TS107), which writes no YAML for specs like these.
func BenchmarkValidate(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"1KiB", 1 << 10}, {"64KiB", 64 << 10}, {"1MiB", 1 << 20}, {"5MiB", 5 << 20}} {
		spec := benchSpec(b, size.bytes)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(size.bytes))
			for range b.N {
				if err := taskspec.Validate(spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
