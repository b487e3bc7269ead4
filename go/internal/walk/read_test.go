package walk

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/taskspec/taskspec/go/internal/budget"
	"github.com/taskspec/taskspec/go/internal/eval"
	"github.com/taskspec/taskspec/go/internal/source"
	"github.com/taskspec/taskspec/go/internal/yamlrules"
)

// The reader must read exactly what yaml.v3's decoder reads from the tree
// without the entries and items the walk refused: both are run on every
// document the walk reads, and where the reader does not leave the
// document to the decoder, their specs and messages must be the same.

// readBoth walks data and reads it both ways; ok is false when the reader
// left it to the decoder or the walk reads nothing.
func readBoth(data []byte) (read, decoded *eval.TaskSpec, readErr, decodeErr error, ok bool) {
	rules := yamlrules.For(source.New(data), nil)
	doc, over, err := rules.Parse(budget.Limits{Nodes: 100000, Depth: 64})
	if over != nil || err != nil || doc.Kind == 0 {
		return nil, nil, nil, nil, false
	}
	w := &walker{rules: rules, budget: 100000, maxNodes: 100000, pos: &Positions{}}
	w.document(doc)
	if w.budget < 0 {
		return nil, nil, nil, nil, false
	}
	read, decoded = new(eval.TaskSpec), new(eval.TaskSpec)
	ok, readErr = w.read(doc, read)
	if !ok {
		return nil, nil, nil, nil, false
	}
	decodeErr = w.decodeRead(doc, decoded)
	return read, decoded, readErr, decodeErr, true
}

func checkRead(t *testing.T, name string, data []byte) bool {
	t.Helper()
	read, decoded, readErr, decodeErr, ok := readBoth(data)
	if !ok {
		return false
	}
	if !reflect.DeepEqual(read, decoded) {
		t.Errorf("%s: read %+v, yaml.v3 decoded %+v\n%s", name, read, decoded, data)
	}
	if fmt.Sprint(readErr) != fmt.Sprint(decodeErr) {
		t.Errorf("%s: read error %v, yaml.v3's %v\n%s", name, readErr, decodeErr, data)
	}
	return true
}

// readCases are documents on the edges of yaml.v3's decoding.
var readCases = []string{
	"task_spec_version: 0o17\ntask_id: ~\nlanguage: !!str 12\n",
	"task_spec_version: 0x1F\ndifficulty_signals: {a: 1_000, b: ~, c: !!float 3, d: 1.0e3, '': 2}\n",
	"task_spec_version: !!float 012\nprompt: !!null\n",
	"task_spec_version: '3'\nprompt: [a]\n",
	"task_spec_version: 9223372036854775807\ntask_id: -0\n",
	"task_spec_version: -9223372036854775808\n",
	"task_spec_version: 99999999999999999999\n",
	"task_spec_version: 1.5\n",
	"task_spec_version: +12\n",
	"task_spec_version: 0\n",
	"task_spec_version: 1e3\n",
	"task_spec_version: !!int 1\n",
	"task_spec_version: true\n",
	"generated_from: ~\nverification: !!null\n",
	"generated_from: {kg_query: ~}\n",
	"generated_from: {kg_query: {}}\n",
	"generated_from: {kg_query: !!null ''}\n",
	"generated_from: !!map {kind: x}\n",
	"generated_from: !!null {kg_query: {intent: a}}\n",
	"generated_from: &g {kind: x, kg_query: *g}\n",
	"solution_artifacts: [a, {path: b}, ~, [c], !, {}]\n",
	"solution_artifacts: &s [*s]\n",
	"solution_artifacts: []\nverification: {build_cmd: [], test_cmd: [a, ~, !, '', [b], {c: d}]}\n",
	"solution_artifacts: [&a x]\nverification: {*a : 1}\n",
	"x: &a kind\ngenerated_from: {*a : y}\n",
	"generated_from: {&a kind : x, *a : y}\n",
	"generated_from: {? &a kind : x, ? &a template_id : y, *a : z}\n",
	"a: &k kind\nb: &t template_id\ngenerated_from: {*k : x, *t : y}\n",
	"task_id: &a x\ntask_spec_version: *a\n",
	"task_spec_version: &a x\ntask_id: *a\n",
	"task_id: &a 5\ntask_spec_version: *a\n",
	"difficulty_signals: &m {a: 1}\nx: *m\n",
	"difficulty_signals: {a: 1, a: 2}\n",
	"task_id: a\ntask_id: b\n",
	"difficulty_signals: ~\n",
	"difficulty_signals: []\n",
	"difficulty_signals: {a: [1], b: x, c: 2}\n",
	"difficulty_signals: {1: 1, true: 2, ~: 3}\n",
	"verification: {timeout_seconds: 0b101}\n",
	"verification: {timeout_seconds: !!float 0x10}\n",
	"task_id: !!binary aGk=\n",
	"task_id: <<\n",
	"<<: {task_id: x}\n",
	"task_id: 2001-12-14\nprompt: .inf\nlanguage: yes\n",
	"[1, 2]\n",
	"~\n",
	"x\n",
	"&r {solution_artifacts: [*r]}\n",
	"task_id: !custom x\n",
	"task_id: ! x\ntask_spec_version: ! 1\n",
	"task_spec_version: \n",
}

func TestReadAgreesWithDecoder(t *testing.T) {
	read := 0
	for i, c := range readCases {
		if checkRead(t, fmt.Sprintf("case %d", i), []byte(c)) {
			read++
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "tests", "conformance", "vectors", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if checkRead(t, name, data) {
			read++
		}
	}
	var problems struct {
		Cases []struct {
			Name, Format, Text string
		}
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "contract", "problems.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &problems); err != nil {
		t.Fatal(err)
	}
	for _, c := range problems.Cases {
		if c.Format == "yaml" && checkRead(t, c.Name, []byte(c.Text)) {
			read++
		}
	}
	if read < len(files) {
		t.Errorf("only %d documents read, of %d vectors and more", read, len(files))
	}
}

func FuzzReadAgreesWithDecoder(f *testing.F) {
	for _, c := range readCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "input", data)
	})
}
