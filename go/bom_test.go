package taskspec_test

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	taskspec "github.com/taskspec/taskspec/go"
)

// bom is U+FEFF, a byte order mark.
const bom = "\ufeff"

// A raw byte order mark inside a quoted or block value is read as written,
// with warning TS305 at the mark, and MarshalYAML writes it as the escape
// \uFEFF, which reads back as the mark with nothing to warn of.
func TestAByteOrderMarkInAQuotedOrBlockValueIsReadAndWrittenAsAnEscape(t *testing.T) {
	for _, c := range []struct{ prompt, want string }{
		{`"Fix` + bom + ` it."`, "Fix" + bom + " it."},
		{`'Fix` + bom + ` it.'`, "Fix" + bom + " it."},
		{"|-\n  Fix" + bom + " it.\n  " + bom + "Now.", "Fix" + bom + " it.\n" + bom + "Now."},
		{">-\n  Fix" + bom + " it.\n  " + bom + "Now.", "Fix" + bom + " it. " + bom + "Now."},
	} {
		doc := strings.Replace(validDoc, "prompt: Fix it.", "prompt: "+c.prompt, 1)
		spec, err := taskspec.ParseYAML([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", c.prompt, err)
		}
		if spec.GetPrompt() != c.want {
			t.Errorf("%q: prompt %q, want %q", c.prompt, spec.GetPrompt(), c.want)
		}
		vs := taskspec.Check([]byte(doc))
		if len(vs) != strings.Count(c.want, bom) {
			t.Errorf("%q: %d problems, want one per mark: %v", c.prompt, len(vs), vs)
		}
		for _, v := range vs {
			if v.Code != taskspec.CodeYAMLByteOrderMark || v.Severity != taskspec.SeverityWarning || v.FieldPath != "prompt" {
				t.Errorf("%q: %s %s %s, want a TS305 warning at the prompt", c.prompt, v.Code, v.Severity, v.FieldPath)
			}
		}
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out, []byte(bom)) || !bytes.Contains(out, []byte(`\uFEFF`)) {
			t.Errorf("%q: MarshalYAML wrote the mark raw:\n%s", c.prompt, out)
		}
		if again := taskspec.Check(out); len(again) != 0 {
			t.Errorf("%q: the written text has problems: %v", c.prompt, again)
		}
	}
}

// yaml.v3 tests for a byte order mark at the start of its read buffer
// rather than at the character it reads, so a mark where the buffer is
// refilled (its first 512 bytes are read first) makes it skip the first
// character of later lines. The library reads such a text as written.
func TestAByteOrderMarkWhereYamlV3RefillsItsBufferIsReadAsWritten(t *testing.T) {
	misread := 0
	for pad := 400; pad < 520; pad++ {
		prompt := strings.Repeat("x", pad) + bom
		doc := strings.Replace(validDoc, "prompt: Fix it.", `prompt: "`+prompt+`"`, 1)
		spec, err := taskspec.ParseYAML([]byte(doc))
		if err != nil || spec.GetPrompt() != prompt || spec.GetVerification().GetTimeoutSeconds() != 60 {
			t.Fatalf("pad %d: %v, prompt %q", pad, err, spec.GetPrompt())
		}
		var plain struct {
			Verification struct {
				TimeoutSeconds int `yaml:"timeout_seconds"`
			} `yaml:"verification"`
		}
		if err := yaml.Unmarshal([]byte(doc), &plain); err != nil || plain.Verification.TimeoutSeconds != 60 {
			misread++
		}
	}
	if misread == 0 {
		t.Fatal("yaml.v3 misread no text: the case tests nothing")
	}
}

// BenchmarkCheckManyByteOrderMarks checks a one-line JSON document whose
// prompt holds 100,000 raw marks: each is found and placed once, so the
// cost follows the text's length.
func BenchmarkCheckManyByteOrderMarks(b *testing.B) {
	doc := []byte(`{"task_spec_version": 1, "task_id": "t-1", "language": "go", "difficulty": "easy", ` +
		`"generated_from": {"kind": "kg_template"}, "prompt": "` + strings.Repeat("a"+bom, 100000) + `", ` +
		`"verification": {"test_cmd": ["go", "test"]}}`)
	b.SetBytes(int64(len(doc)))
	for range b.N {
		if vs := taskspec.Check(doc); len(vs) != 100000 {
			b.Fatalf("%d problems", len(vs))
		}
	}
}
