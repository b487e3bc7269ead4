package taskspec

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// problemCase is one case of tests/contract/problems.json, the table of
// documents and their problems that the Python suite reads too.
type problemCase struct {
	Name     string          `json:"name"`
	Format   string          `json:"format"`
	Text     *string         `json:"text"`
	Base64   string          `json:"base64"`
	Problems []problemRecord `json:"problems"`
}

type problemRecord struct {
	Code      Code     `json:"code"`
	FieldPath string   `json:"field_path"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	Message   string   `json:"message"`
	Hint      string   `json:"hint"`
	Severity  Severity `json:"severity"`
	Fix       *Fix     `json:"fix,omitempty"`
}

func loadProblemTable(t *testing.T) []problemCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "tests", "contract", "problems.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []problemCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 150 {
		t.Fatalf("the shared table has %d cases, want at least 150", len(table.Cases))
	}
	return table.Cases
}

func (c problemCase) document(t *testing.T) []byte {
	t.Helper()
	if c.Text != nil {
		return []byte(*c.Text)
	}
	data, err := base64.StdEncoding.DecodeString(c.Base64)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestCheckGivesTheSharedTablesProblems(t *testing.T) {
	for _, c := range loadProblemTable(t) {
		t.Run(c.Name, func(t *testing.T) {
			format, err := ParseFormat(c.Format)
			if err != nil {
				t.Fatal(err)
			}
			got := []problemRecord{}
			for _, v := range CheckFormat(c.document(t), format) {
				got = append(got, problemRecord{v.Code, v.FieldPath, v.Line, v.Column, v.Message, v.Hint, v.Severity, v.Fix})
			}
			want := c.Problems
			if want == nil {
				want = []problemRecord{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestValidateRefusesAStringThatIsNotUTF8 gives TS106, the code no
// document of the table can hold: only a Go string can be other than
// UTF-8. Its message is the catalogue's form.
func TestValidateRefusesAStringThatIsNotUTF8(t *testing.T) {
	spec := &taskspecv1.TaskSpec{}
	spec.Prompt = "caf\xe9"
	var found *Violation
	for _, v := range Violations(spec) {
		if v.Code == CodeNotUTF8 {
			found = &v
			break
		}
	}
	if found == nil {
		t.Fatalf("no %s among %v", CodeNotUTF8, Violations(spec))
	}
	kind, _ := LookupProblem(CodeNotUTF8)
	if want := strings.ReplaceAll(kind.Messages[0], "{path}", "prompt"); found.FieldPath != "prompt" || found.Message != want {
		t.Errorf("got %+v, want the message %q at prompt", *found, want)
	}
}

// TestCheckTellsASecondDocumentFromTextAfterTheFirst: a second document
// that "---" starts is one yaml.v3 ignores silently (TS004, at the
// marker); text after the root value with no marker, after a "..." end
// marker or not, is a syntax error (TS005), and so is a directive no
// "---" follows (TS018), as libyaml finds them.
func TestCheckTellsASecondDocumentFromTextAfterTheFirst(t *testing.T) {
	for doc, want := range map[string]string{
		"task_id: x\n---\nprompt: p\n":       "TS004 line 2: more than one YAML document: the Go package reads the first and ignores the rest silently",
		"task_id: x\n...\nprompt: p\n":       "TS005 line 3: invalid YAML: text after the end of the document",
		"{}t":                                "TS005 line 1: invalid YAML: text after the end of the document",
		"task_id: x\n%YAML 1.1\nprompt: p\n": "TS018 line 3: invalid YAML: a directive must be followed by a document start (---)",
		"%YAML 1.1\ntask_id: t\n":            "TS018 line 2: invalid YAML: a directive must be followed by a document start (---)",
		"%TAG !\n---\ntask_id: t\n":          "TS018 line 1: invalid YAML: a %YAML or %TAG directive cannot be read",
	} {
		vs := Check([]byte(doc))
		if len(vs) != 1 {
			t.Errorf("%q: got %v", doc, vs)
			continue
		}
		if got := fmt.Sprintf("%s line %d: %s", vs[0].Code, vs[0].Line, vs[0].Message); got != want {
			t.Errorf("%q:\n got %s\nwant %s", doc, got, want)
		}
	}
	// Where the readers part ways (a marker, then text libyaml's parser
	// never reaches; text after a flow root, then a marker), each may stop
	// at its own first: a second document or a syntax problem.
	for _, doc := range []string{"a\n---   - x\n", "--- [a] b\n---\n"} {
		if vs := Check([]byte(doc)); len(vs) != 1 || !isParseStop(vs[0]) {
			t.Errorf("%q: got %v, want a second document or a syntax problem", doc, vs)
		}
	}
}

// isParseStop reports whether v is a syntax problem or the refusal of a
// second document: the problems at which the libraries may each stop
// where their parsers read the text differently (see docs/problems.md).
func isParseStop(v Violation) bool {
	return syntaxCodes[v.Code] || v.Code == CodeUnsupported && strings.HasPrefix(v.Message, "more than one YAML document:")
}

// TestCheckGivesTheLineOfTheProblemNotOfItsContext: yaml.v3 names the
// line where a parser problem's context starts (the collection or key it
// is in); libyaml, and so the contract, the problem's own line.
func TestCheckGivesTheLineOfTheProblemNotOfItsContext(t *testing.T) {
	for doc, want := range map[string]string{
		"a: 1\nb:\n    c: [x, y\n    d: 2\n": "TS013 line 4",
		"a: 1\nb:\n    c: {x: y\nd: 2\n":     "TS013 line 4",
		"a: 1\nb:\n    c: 1\n    : 9\n":      "TS015 line 4",
		"a: 1\nb go\n\nc: 1\n":               "TS015 line 4",
		"a: 1\nb: \"x\n---\n  y\"\n":         "TS012 line 3",
	} {
		vs := Check([]byte(doc))
		if len(vs) != 1 || fmt.Sprintf("%s line %d", vs[0].Code, vs[0].Line) != want {
			t.Errorf("%q: got %v, want %s", doc, vs, want)
		}
	}
}

// TestCheckPlacesASyntaxProblemAtLibyamlsMark: a syntax problem is at
// libyaml's problem mark, line and column, as the Python library gives it:
// the key, not the mapping it is in; the tab that indents; the token after
// a directive no "---" follows; the end of the text, or the marker, a
// quoted value meets; the first of an alias to no anchor and a syntax
// problem, in the Python library's order.
func TestCheckPlacesASyntaxProblemAtLibyamlsMark(t *testing.T) {
	for doc, want := range map[string]string{
		"a: 1\nb:\n  c: 1\n d: 2\n": "TS015 4:2",
		"a: 1\n\tb: 2\n":            "TS010 2:1",
		"%YAML 1.1\nx\n---\na: 1\n": "TS018 2:1",
		"a: 'b\n":                   "TS012 2:1",
		"a: 'b\n---\nc\n":           "TS012 2:1",
		// An alias to no anchor is refused as the document is composed,
		// after a pass over its events where the Python library makes one
		// (here, for the escape \/): a syntax problem past it comes first.
		"a: *nope\nb: c: d\n":             "TS019 1:4",
		"a: *nope\nb: c: d\ne: \"\\/\"\n": "TS014 2:5",
		"a: *nope\nb: \"\\/\"\nc: d: e\n": "TS016 2:5",
	} {
		vs := Check([]byte(doc))
		if len(vs) != 1 || fmt.Sprintf("%s %d:%d", vs[0].Code, vs[0].Line, vs[0].Column) != want {
			t.Errorf("%q: got %v, want %s", doc, vs, want)
		}
	}
}

// TestCheckFormatReportsEveryJSONDecodeProblem: like YAML, a JSON
// document's unknown keys, keys given twice and values of the wrong type
// all come at once, then the rules of what could be read, leaving out
// those of a field a problem already names.
func TestCheckFormatReportsEveryJSONDecodeProblem(t *testing.T) {
	doc := `{"taskSpecVersion": "1", "taskId": 5, "language": "LANGUAGE_GO", "difficulty": "DIFFICULTY_EASY",` +
		` "generatedFrom": {"kind": "GENERATED_KIND_KG_TEMPLATE", "tmplate_id": "x"}, "promt": "p", "owner": 1}`
	var got []string
	for _, v := range CheckFormat([]byte(doc), JSON) {
		got = append(got, string(v.Code)+" "+v.FieldPath+": "+v.Message+"; "+v.Hint)
	}
	want := []string{
		"TS003 task_id: task_id: expected a string, got the number 5; ",
		`TS001 generated_from.tmplate_id: unknown field "tmplate_id" in generated_from; did you mean "templateId"?`,
		`TS001 promt: unknown field "promt"; did you mean "prompt"?`,
		"TS001 owner: unknown field \"owner\"; expected one of: " + topJSONFields(),
		"TS102 verification.test_cmd: verification.test_cmd is required; ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckFindsMisreadsInFlowsYamlV3FailsAfter: a tag libyaml ends at
// ',' and a plain scalar ending in ':' before a flow indicator, where
// yaml.v3 reads past them and fails further on its line, are refused
// where the reader meets them, as the Python library refuses them; so is a
// second document whose start yaml.v3 cannot read, at its marker.
func TestCheckFindsMisreadsInFlowsYamlV3FailsAfter(t *testing.T) {
	for doc, want := range map[string]string{
		"verification: {test_cmd: [!a, !b] c]}\n": `TS004 1:27 the tag "!a" is followed by ','`,
		"[,b:}b:? '?']--- *a\n  - |2\n":           `TS004 1:3 the plain scalar "b:" ends in ':' inside [] or {}`,
		"a\n---   - x\n":                          "TS004 2:1 more than one YAML document:",
	} {
		vs := Check([]byte(doc))
		if len(vs) != 1 || !strings.HasPrefix(fmt.Sprintf("%s %d:%d %s", vs[0].Code, vs[0].Line, vs[0].Column, vs[0].Message), want) {
			t.Errorf("%q: got %v, want %s", doc, vs, want)
		}
	}
	// Not where libyaml's parser fails before it: at a value with no key.
	if vs := Check([]byte("a: 1\n:\t{b:{a: b}\n")); len(vs) != 1 || !syntaxCodes[vs[0].Code] {
		t.Errorf("got %v, want a syntax problem", vs)
	}
}

// TestCheckRefusesATabThatIndentsAmongComments: libyaml's scanner reads a
// tab that starts a line (after any spaces) as indentation and fails, in
// a text of nothing but comments too, where yaml.v3 finds no document; the
// tab is refused at its line and column, as the Python library refuses
// it.
func TestCheckRefusesATabThatIndentsAmongComments(t *testing.T) {
	for doc, want := range map[string]string{
		"#c\n\t#c\n":         "TS010 2:1",
		"#c\n  \t#x\n":       "TS010 2:3",
		"\ufeff#c\n\t#c\n":   "TS010 2:1",
		"#c\n#d\n":           "TS003 0:0",
		"#c\n[\n\t@]\n":      "TS011 3:2",
		"task_id: t\n\t#c\n": "TS010 2:1",
	} {
		vs := Check([]byte(doc))
		if len(vs) == 0 || fmt.Sprintf("%s %d:%d", vs[0].Code, vs[0].Line, vs[0].Column) != want {
			t.Errorf("%q: got %v, want %s", doc, vs, want)
		}
	}
	// Where yaml.v3 stops at the tab itself, a syntax problem on its line.
	if vs := Check([]byte("\t#c\n")); len(vs) != 1 || !syntaxCodes[vs[0].Code] || vs[0].Line != 1 {
		t.Errorf("got %v, want a syntax problem on line 1", vs)
	}
}

// TestCheckRefusesAByteOrderMarkOutsideAValue: libyaml skips a mark that
// starts a line, yaml.v3 reads it as text, so one there is refused before
// anything is read; one past the start of its line outside any value (a
// comment, between tokens) is refused once the document is parsed, as the
// Python library refuses it. Inside a value, plain, quoted or block, a mark
// is text to both readers: the value is read with it, with TS305, and a
// syntax error after it is reported as it is.
func TestCheckRefusesAByteOrderMarkOutsideAValue(t *testing.T) {
	for doc, want := range map[string]string{
		"task_id: x\n\ufeff---\n":                "TS004 2:1 byte order mark at the start of a line",
		"...!t|\n\ufeff#cprompt: !!str&a ":       "TS004 2:1 byte order mark at the start of a line",
		"task_id: [x,\n\ufeffy]\n":               "TS004 2:1 byte order mark at the start of a line",
		"\ufeff\ufefftask_id: x\n":               "TS004 1:1 two byte order marks at the start",
		"task_id: x\n# note\ufeff\nprompt: p\n":  "TS004 2:7 byte order mark outside a value",
		"task_id: \"a\n  \ufeffb\"\nprompt: [\n": "TS015 4:1 invalid YAML: expected a value",
	} {
		vs := Check([]byte(doc))
		if len(vs) == 0 || !strings.HasPrefix(fmt.Sprintf("%s %d:%d %s", vs[0].Code, vs[0].Line, vs[0].Column, vs[0].Message), want) {
			t.Errorf("%q: got %v, want %s", doc, vs, want)
		}
	}
	// In a plain value, as the npm yaml package and prettier write a mark
	// that starts a string, and past its start.
	for _, doc := range []string{"\ufefftask_id: a\ufeffb\n", "task_id: \ufeffab\n", "task_id: [x, \ufeffy]\n"} {
		vs := Check([]byte(doc))
		if slices.ContainsFunc(vs, func(v Violation) bool { return v.Code == CodeUnsupported || v.Code == CodeSyntax }) ||
			!slices.ContainsFunc(vs, func(v Violation) bool { return v.Code == CodeYAMLByteOrderMark }) {
			t.Errorf("%q: got %v, want the mark read, with TS305", doc, vs)
		}
	}
}

// topJSONFields is the JSON hint's list of TaskSpec's fields, from the
// descriptor, so that a field added to the proto changes no test.
func topJSONFields() string {
	fields := (&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor().Fields()
	names := make([]string, fields.Len())
	for i := range names {
		names[i] = fields.Get(i).JSONName()
	}
	return strings.Join(names, ", ")
}
