package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

func golden(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("eval", "testdata", "*.yaml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("golden vectors: %v (%d files)", err, len(files))
	}
	out := make(map[string][]byte)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// run sends lines to serve and returns one decoded response per line.
func run(t *testing.T, lines ...string) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := serve(strings.NewReader(strings.Join(lines, "\n")), &out); err != nil {
		t.Fatal(err)
	}
	var resps []map[string]any
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("bad response line %q: %v", sc.Text(), err)
		}
		resps = append(resps, m)
	}
	return resps
}

func req(t *testing.T, fields map[string]any) string {
	t.Helper()
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func b64s(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func unb64(t *testing.T, v any) []byte {
	t.Helper()
	s, _ := v.(string)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServeGoldenVectors(t *testing.T) {
	for name, data := range golden(t) {
		resps := run(t,
			req(t, map[string]any{"op": "parse", "yaml_b64": b64s(data)}),
			req(t, map[string]any{"op": "decode", "yaml_b64": b64s(data)}))
		if len(resps) != 2 {
			t.Fatalf("%s: %d responses", name, len(resps))
		}
		for _, r := range resps {
			if r["ok"] != true {
				t.Fatalf("%s: %v", name, r)
			}
			if got := unb64(t, r["yaml_b64"]); !bytes.Equal(got, data) {
				t.Errorf("%s: yaml_b64 differs:\n%s", name, got)
			}
		}
		if resps[1]["validate_error"] != "" {
			t.Errorf("%s: validate_error = %v", name, resps[1]["validate_error"])
		}
		// Feed the spec back through every spec-taking op.
		spec := resps[0]["spec"]
		resps = run(t,
			req(t, map[string]any{"op": "marshal", "spec": spec}),
			req(t, map[string]any{"op": "wire_encode", "spec": spec}),
			req(t, map[string]any{"op": "validate", "spec": spec}),
			req(t, map[string]any{"op": "signal_keys", "spec": spec}))
		if got := unb64(t, resps[0]["yaml_b64"]); !bytes.Equal(got, data) || resps[0]["roundtrip_ok"] != true ||
			resps[0]["roundtrip_error"] != "" {
			t.Errorf("%s: marshal: %v", name, resps[0])
		}
		if resps[2]["ok"] != true || len(resps[2]) != 1 {
			t.Errorf("%s: validate: %v", name, resps[2])
		}
		if keys, _ := resps[3]["keys"].([]any); len(keys) != 3 {
			t.Errorf("%s: signal_keys: %v", name, resps[3])
		}
		wire := resps[1]
		resps = run(t,
			req(t, map[string]any{"op": "wire_decode", "binpb_b64": wire["binpb_b64"]}),
			req(t, map[string]any{"op": "wire_decode", "json": wire["json"]}))
		for _, r := range resps {
			if !reflect.DeepEqual(r["spec"], spec) || !bytes.Equal(unb64(t, r["yaml_b64"]), data) {
				t.Errorf("%s: wire_decode: %v", name, r)
			}
		}
	}
}

func TestServeDecodeMatchesParseTaskSpec(t *testing.T) {
	docs := []string{
		"",
		"---\n",
		minimal,
		minimal + "bogus: 1\n",
		strings.Replace(minimal, "language: go", "language: cobol", 1),
		strings.Replace(minimal, "prompt: p", "prompt: \"\\n\\t \"", 1),
		"task_spec_version: 1.9\n",
		"[1, 2]\n",
	}
	for name, data := range golden(t) {
		docs = append(docs, string(data))
		_ = name
	}
	for _, doc := range docs {
		parsed, perr := eval.ParseTaskSpec([]byte(doc))
		decoded, derr := decodeStrict([]byte(doc))
		if derr == nil {
			derr = decoded.Validate()
		}
		if (perr == nil) != (derr == nil) || (perr != nil && perr.Error() != derr.Error()) {
			t.Errorf("%q: ParseTaskSpec err %v, decode+Validate err %v", doc, perr, derr)
		}
		if perr == nil && !reflect.DeepEqual(parsed, decoded) {
			t.Errorf("%q: values differ", doc)
		}
	}
}

const minimal = "task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n" +
	"generated_from:\n    kind: kg_template\nprompt: p\nverification:\n    test_cmd:\n        - x\n"

func TestServeErrorsAndEdgeCases(t *testing.T) {
	cobol := strings.Replace(minimal, "language: go", "language: cobol", 1)
	extremes := `{"op":"marshal","id":7,"spec":{"task_spec_version":-9223372036854775808,"difficulty_signals":{"max":9223372036854775807,"min":-9223372036854775808},"verification":{"timeout_seconds":9223372036854775807}}}`
	resps := run(t,
		`{"op":"nope"}`,
		`not json`,
		``,
		`   `,
		`{"op":"parse"}`,
		`{"op":"parse","yaml_b64":"!!!"}`,
		`{"op":"parse","yaml_b64":""}`,
		req(t, map[string]any{"op": "parse", "yaml_b64": b64s([]byte(cobol))}),
		req(t, map[string]any{"op": "decode", "yaml_b64": b64s([]byte(cobol)), "id": "abc"}),
		`{"op":"marshal","spec":{"bogus":1}}`,
		`{"op":"marshal","spec":{"difficulty_signals":{"<<":1}}}`,
		extremes,
		`{"op":"wire_encode","spec":{"language":"cobol"}}`,
		`{"op":"wire_decode"}`,
		`{"op":"wire_decode","json":"{\"language\":7}"}`,
		`{"op":"wire_decode","binpb_b64":""}`,
		`{"op":"validate","spec":{"task_spec_version":1,"task_id":"t","language":"go","difficulty":"easy","generated_from":{"kind":"kg_template"},"prompt":"p","verification":{"test_cmd":[],"timeout_seconds":-5}}}`,
		`{"op":"signal_keys","spec":{"difficulty_signals":{}}}`,
		`{"op":"marshal","spec":null}`,
		`{"op":"parse","yaml_b64":"","extra":1}`,
	)
	want := []struct {
		ok      bool
		errHas  string
		checker func(map[string]any) bool
	}{
		{false, `request: unknown op "nope"`, nil},
		{false, "request: invalid character", nil},
		{false, "request: parse needs yaml_b64", nil},
		{false, "request: yaml_b64: illegal base64", nil},
		{false, "eval: decode task spec: EOF", nil},
		{false, `eval: invalid language "cobol"`, nil},
		{true, "", func(r map[string]any) bool {
			return r["validate_error"] == `eval: invalid language "cobol"` && r["id"] == "abc" &&
				r["spec"].(map[string]any)["language"] == "cobol"
		}},
		{false, `request: marshal: spec: json: unknown field "bogus"`, nil},
		{true, "", func(r map[string]any) bool {
			return r["roundtrip_ok"] == false &&
				strings.Contains(r["roundtrip_error"].(string), "map merge requires map")
		}},
		{true, "", func(r map[string]any) bool {
			y := string(unb64(t, r["yaml_b64"]))
			return r["roundtrip_ok"] == true && r["id"] == json.Number("7") &&
				strings.Contains(y, "task_spec_version: -9223372036854775808\n") &&
				strings.Contains(y, "max: 9223372036854775807\n") &&
				strings.Contains(y, "timeout_seconds: 9223372036854775807\n")
		}},
		{false, `taskspec: invalid language "cobol"`, nil},
		{false, "request: wire_decode needs binpb_b64 or json", nil},
		{false, "taskspec: language: enum value 7 is not defined in taskspec.v1.Language and cannot be written as YAML", nil},
		{true, "", func(r map[string]any) bool {
			s := r["spec"].(map[string]any)
			gf := s["generated_from"].(map[string]any)
			return gf["kg_query"] == nil && reflect.DeepEqual(s["solution_artifacts"], []any{}) &&
				reflect.DeepEqual(s["difficulty_signals"], map[string]any{})
		}},
		{false, "eval: verification.test_cmd is required", nil},
		{true, "", func(r map[string]any) bool { return reflect.DeepEqual(r["keys"], []any{}) }},
		{false, "request: marshal: missing spec", nil},
		{false, `request: json: unknown field "extra"`, nil},
	}
	if len(resps) != len(want) {
		t.Fatalf("got %d responses, want %d (blank lines produce none): %v", len(resps), len(want), resps)
	}
	for i, w := range want {
		r := resps[i]
		errStr, _ := r["error"].(string)
		if r["ok"] != w.ok || !strings.Contains(errStr, w.errHas) || (w.checker != nil && !w.checker(r)) {
			t.Errorf("response %d = %v, want ok=%v error containing %q", i, r, w.ok, w.errHas)
		}
	}
}

func TestServeRecoversPanics(t *testing.T) {
	defer func(h func(*request) (*response, error)) { handle = h }(handle)
	handle = func(req *request) (*response, error) {
		if req.Op == "boom" {
			panic("kaboom")
		}
		return dispatch(req)
	}
	resps := run(t, `{"op":"boom","id":1}`, `{"op":"validate","spec":{}}`)
	if len(resps) != 2 || resps[0]["ok"] != false || resps[0]["error"] != "panic: kaboom" ||
		resps[0]["id"] != json.Number("1") {
		t.Fatalf("panic not reported: %v", resps)
	}
	if resps[1]["error"] != "eval: unsupported task_spec_version 0 (this build produces v1)" {
		t.Errorf("server did not carry on after a panic: %v", resps[1])
	}
}

func TestBench(t *testing.T) {
	var files []string
	for f := range golden(t) {
		files = append(files, f)
	}
	var out bytes.Buffer
	if err := bench(append([]string{"-n", "2", "-min-time", "1ms"}, files...), &out); err != nil {
		t.Fatal(err)
	}
	var res benchResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Docs != len(files) || res.ParseNsPerDoc <= 0 || res.MarshalNsPerDoc <= 0 ||
		res.WireParseNsPerDoc <= 0 || res.WireMarshalNsPerDoc <= 0 || res.ParseIterations < 2 ||
		res.LibParseNsPerDoc <= 0 || res.LibMarshalNsPerDoc <= 0 || res.LibParseIterations < 2 {
		t.Errorf("bad result %+v", res)
	}
	if err := bench([]string{"-min-time", "1ms", filepath.Join("eval", "testdata", "missing.yaml")}, &out); err == nil {
		t.Error("bench of a missing file succeeded")
	}
}

func TestBenchEach(t *testing.T) {
	var files []string
	for f := range golden(t) {
		files = append(files, f)
		if len(files) == 2 {
			break
		}
	}
	var out bytes.Buffer
	args := append([]string{"-each", "-min-time", "1ms", "-ops", "parse,lib_parse"}, files...)
	if err := bench(args, &out); err != nil {
		t.Fatal(err)
	}
	var res []benchResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(res) != len(files) {
		t.Fatalf("%d results for %d files", len(res), len(files))
	}
	for _, r := range res {
		if r.Docs != 1 || r.ParseNsPerDoc <= 0 || r.LibParseNsPerDoc <= 0 || r.MarshalNsPerDoc != 0 {
			t.Errorf("bad result %+v", r)
		}
	}
}

func TestServeStyles(t *testing.T) {
	resps := run(t,
		`{"op":"styles","texts":["plain","yes","a: b","two\nlines"]}`,
		`{"op":"styles"}`,
	)
	if resps[0]["ok"] != true {
		t.Fatalf("styles: %v", resps[0])
	}
	got := map[string]string{}
	for _, r := range resps[0]["styles"].([]any) {
		rec := r.(map[string]any)
		got[rec["text"].(string)+"/"+rec["context"].(string)] = rec["style"].(string)
	}
	want := map[string]string{
		"plain/value":      "plain",
		"yes/value":        "double-quoted",
		"a: b/value":       "single-quoted",
		"two\nlines/value": "literal",
		"two\nlines/flow":  "double-quoted",
		"plain/flow_key":   "plain",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q: style %q, want %q", k, got[k], v)
		}
	}
	if len(got) != 16 {
		t.Errorf("%d records, want 4 per text", len(got))
	}
	if resps[1]["ok"] != false || !strings.Contains(resps[1]["error"].(string), "styles needs texts") {
		t.Errorf("styles without texts: %v", resps[1])
	}
}

func TestServeLibCheck(t *testing.T) {
	doc := strings.Replace(minimal, "language: go", "language: golang\nbogus: 1", 1)
	resps := run(t,
		req(t, map[string]any{"op": "lib_check", "yaml_b64": b64s([]byte(doc))}),
		req(t, map[string]any{"op": "lib_check", "yaml_b64": b64s([]byte(minimal))}),
		req(t, map[string]any{"op": "lib_check", "yaml_b64": b64s([]byte(`{"taskId": 5}`)), "format": "json"}),
		req(t, map[string]any{"op": "lib_check", "yaml_b64": b64s([]byte("x")), "format": "xml"}),
	)
	problems := resps[0]["problems"].([]any)
	if len(problems) != 2 {
		t.Fatalf("problems = %v", problems)
	}
	first := problems[0].(map[string]any)
	if first["code"] != "TS001" || first["field_path"] != "bogus" || first["severity"] != "error" ||
		first["hint"] == "" || first["message"] != `bogus: unknown field "bogus"` {
		t.Errorf("first problem = %v", first)
	}
	if second := problems[1].(map[string]any); second["code"] != "TS103" || second["hint"] != `did you mean "go"?` {
		t.Errorf("second problem = %v", second)
	}
	if got := resps[1]["problems"].([]any); resps[1]["ok"] != true || len(got) != 0 {
		t.Errorf("a valid document: %v", resps[1])
	}
	if got := resps[2]["problems"].([]any)[0].(map[string]any); got["message"] != "task_id: expected a string, got the number 5" {
		t.Errorf("JSON: %v", got)
	}
	if resps[3]["ok"] != false || !strings.Contains(resps[3]["error"].(string), `unknown format "xml"`) {
		t.Errorf("unknown format: %v", resps[3])
	}
}
