package taskspec_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// FuzzParseYAML checks that ParseYAML never panics on any input and that
// whatever it accepts survives MarshalYAML and ParseYAML again unchanged,
// with stable bytes. It is seeded with every conformance vector.
func FuzzParseYAML(f *testing.F) {
	for _, kind := range []string{"canonical", "accepted", "rejected", "roundtrip_bugs"} {
		for _, v := range loadVectors(f, kind) {
			f.Add(v.data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := taskspec.ParseYAML(data)
		if err != nil {
			if spec != nil {
				t.Fatalf("spec returned with error %v", err)
			}
			return
		}
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			t.Fatalf("MarshalYAML of a parsed spec: %v", err)
		}
		back, err := taskspec.ParseYAML(out)
		if err != nil {
			t.Fatalf("ParseYAML(MarshalYAML(s)) fails: %v\n%q", err, out)
		}
		if !proto.Equal(back, spec) {
			t.Fatalf("ParseYAML(MarshalYAML(s)) = %v, want %v\n%q", back, spec, out)
		}
		again, err := taskspec.MarshalYAML(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("MarshalYAML is not stable: %q then %q (%v)", out, again, err)
		}
	})
}

// FuzzParseJSON checks that ParseJSON never panics, that what it refuses
// CheckFormat refuses too, and that whatever it accepts survives
// MarshalJSON and ParseJSON again unchanged. It is seeded with every
// canonical vector as JSON.
func FuzzParseJSON(f *testing.F) {
	for _, v := range loadVectors(f, "canonical") {
		if spec, err := taskspec.ParseYAML(v.data); err == nil {
			data, _ := taskspec.MarshalJSON(spec)
			f.Add(data)
		}
	}
	f.Add([]byte(`{"taskId": "\ud800\udc00", "task_id": "x", "bogus": [1e400, -0, "\u12"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := taskspec.ParseJSON(data)
		if err != nil {
			if spec != nil || len(taskspec.CheckFormat(data, taskspec.JSON)) == 0 {
				t.Fatalf("refused with %v, but spec %v, problems %v", err, spec, taskspec.CheckFormat(data, taskspec.JSON))
			}
			return
		}
		out, err := taskspec.MarshalJSON(spec)
		if err != nil {
			t.Fatalf("MarshalJSON of a parsed spec: %v", err)
		}
		back, err := taskspec.ParseJSON(out)
		if err != nil || !proto.Equal(back, spec) {
			t.Fatalf("ParseJSON(MarshalJSON(s)) = %v, %v, want %v\n%q", back, err, spec, out)
		}
	})
}

// FuzzMarshalYAML builds specs from arbitrary strings, in every position
// that yaml.v3 lays out differently (top-level value, list item, artifact
// field, map key), and checks that MarshalYAML writes YAML that reads back
// as the same spec: it must never copy one of yaml.v3's unreadable
// outputs. Seeded with the strings of the known yaml.v3 write bugs.
func FuzzMarshalYAML(f *testing.F) {
	for _, s := range []string{" a\nb", "\na", "\tx\ny", "<<", "\n", "a\n\n", " x\ny\n\n", "\u2028a", "a\r\nb", "\ufeffa", "é🙂"} {
		f.Add(s, s, s, s, int64(1))
	}
	for _, v := range loadVectors(f, "roundtrip_bugs") {
		cmd := v.Spec.Verification.TestCmd[0]
		prompt := v.Spec.Prompt
		key, path := "k", "p"
		for k := range v.Spec.DifficultySignals {
			key = k
		}
		if len(v.Spec.SolutionArtifacts) > 0 {
			path = v.Spec.SolutionArtifacts[0].Path
		}
		f.Add(prompt, cmd, path, key, int64(2))
	}
	f.Fuzz(func(t *testing.T, text, item, path, key string, n int64) {
		for _, s := range []string{text, item, path, key} {
			if !utf8.ValidString(s) {
				return // proto strings are UTF-8; the message cannot be marshalled
			}
		}
		spec := &taskspecv1.TaskSpec{
			TaskSpecVersion:   1,
			TaskId:            text,
			Language:          taskspecv1.Language_LANGUAGE_GO,
			Difficulty:        taskspecv1.Difficulty_DIFFICULTY_EASY,
			DifficultySignals: map[string]int64{key: n, "a": 1},
			GeneratedFrom: &taskspecv1.GeneratedFrom{
				Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: item,
				KgQuery: &taskspecv1.KGQuery{Intent: text, SeedSymbol: path},
			},
			Prompt:            text,
			SolutionArtifacts: []*taskspecv1.SolutionArtifact{{Path: path, Role: item}},
			Verification: &taskspecv1.Verification{
				BuildCmd: []string{text}, TestCmd: []string{item, path}, TimeoutSeconds: n & 0xffff,
			},
		}
		out, err := taskspec.MarshalYAML(spec)
		if err != nil {
			t.Fatalf("MarshalYAML: %v", err)
		}
		back, err := taskspec.DecodeYAML(out)
		if err != nil {
			t.Fatalf("written YAML does not read back: %v\n%q", err, out)
		}
		if !proto.Equal(back, spec) {
			t.Fatalf("reads back as %v, want %v\n%q", back, spec, out)
		}
	})
}
