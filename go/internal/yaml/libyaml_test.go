package yaml

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../../.."

// fixtureError is a libyaml error as scripts/gen_libyaml_events.py records it.
type fixtureError struct {
	Kind        string `json:"kind"`
	Problem     string `json:"problem"`
	ProblemMark []int  `json:"problem_mark"`
	Context     string `json:"context"`
	ContextMark []int  `json:"context_mark"`
	Position    int    `json:"position"`
}

type fixtureCase struct {
	Input        string          `json:"input"`
	InputHex     string          `json:"input_hex"`
	Events       [][]any         `json:"events"`
	EventsBefore [][]any         `json:"events_before"`
	Error        *fixtureError   `json:"error"`
	Raw          json.RawMessage `json:"-"`
}

type fixtureFile struct {
	Name         string        `json:"name"`
	SHA256       string        `json:"sha256"`
	EventsSHA256 string        `json:"events_sha256"`
	Error        *fixtureError `json:"error"`
}

type fixture struct {
	Cases []fixtureCase `json:"cases"`
	Files []fixtureFile `json:"files"`
	Fuzz  []fixtureFile `json:"fuzz"`
}

func loadFixture(t testing.TB) fixture {
	t.Helper()
	b, err := os.ReadFile("testdata/libyaml.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 || len(f.Files) == 0 {
		t.Fatal("the fixture has no cases or no files")
	}
	return f
}

func (c fixtureCase) data(t testing.TB) []byte {
	if c.InputHex != "" {
		b, err := hex.DecodeString(c.InputHex)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []byte(c.Input)
}

// fileData is the text of a fixture file: a file of the repository, or
// the text of a case of the shared problem table ("problems.json#name").
func fileData(t testing.TB, name string) []byte {
	t.Helper()
	if b, ok := fileCache.Load(name); ok {
		return b.([]byte)
	}
	b := readFileData(t, name)
	fileCache.Store(name, b)
	return b
}

// fileCache holds the texts fileData has read.
var fileCache sync.Map

func readFileData(t testing.TB, name string) []byte {
	path, caseName, isCase := strings.Cut(name, "#")
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	if !isCase {
		return b
	}
	var table struct {
		Cases []struct {
			Name string `json:"name"`
			Text any    `json:"text"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		if s, ok := c.Text.(string); ok && c.Name == caseName {
			return []byte(s)
		}
	}
	t.Fatalf("no case %s", name)
	return nil
}

// events reads data's events with the reader's parser, as far as it goes,
// and the error that stopped it.
func events(data []byte) ([]event, *Error) {
	start, rerr := checkInput(data)
	if rerr != nil {
		return nil, rerr
	}
	p := newParser(data, start)
	var out []event
	for {
		e, ok := p.next()
		if !ok {
			return out, p.err
		}
		out = append(out, e)
		if e.kind == evStreamEnd {
			return out, nil
		}
	}
}

var eventNames = map[eventKind]string{
	evStreamStart: "stream-start", evStreamEnd: "stream-end",
	evDocumentStart: "document-start", evDocumentEnd: "document-end",
	evAlias: "alias", evScalar: "scalar",
	evSequenceStart: "sequence-start", evSequenceEnd: "sequence-end",
	evMappingStart: "mapping-start", evMappingEnd: "mapping-end",
}

var styleNames = map[Style]string{
	PlainStyle: "plain", SingleQuotedStyle: "single", DoubleQuotedStyle: "double",
	LiteralStyle: "literal", FoldedStyle: "folded",
}

// quote is the script's _quote: a JSON string in ASCII, every character
// outside ' '..'~', and '"' and '\', as \u escapes (UTF-16 pairs past
// U+FFFF).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x20 || r > 0x7E || r == '"' || r == '\\' {
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
			} else {
				fmt.Fprintf(&b, "\\u%04x", r)
			}
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// canonical is the script's canonical: one line per event.
func canonical(evs []event) string {
	var b strings.Builder
	opt := func(s string) string {
		if s == "" {
			return "null"
		}
		return quote(s)
	}
	for _, e := range evs {
		fields := []string{eventNames[e.kind]}
		for _, m := range []Mark{e.start, e.end} {
			fields = append(fields, strconv.Itoa(m.Index), strconv.Itoa(m.Line), strconv.Itoa(m.Column))
		}
		anchor, tag, value, style, implicit := "null", "null", "null", `""`, "null"
		switch e.kind {
		case evAlias:
			anchor = opt(e.anchor)
		case evScalar:
			anchor, tag, value = opt(e.anchor), opt(e.tag), quote(e.value)
			style = quote(styleNames[e.style])
			implicit = strconv.FormatBool(e.implicit)
		case evSequenceStart, evMappingStart:
			anchor, tag = opt(e.anchor), opt(e.tag)
			style = `"block"`
			if e.flow {
				style = `"flow"`
			}
		case evDocumentStart:
			implicit = strconv.FormatBool(e.implicit)
		}
		fields = append(fields, anchor, tag, value, style, implicit)
		b.WriteString(strings.Join(fields, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// fixtureCanonical is the canonical text of events as the fixture records
// them (arrays of kind, marks, anchor, tag, value, style, implicit).
func fixtureCanonical(t testing.TB, evs [][]any) string {
	var b strings.Builder
	for _, e := range evs {
		fields := []string{e[0].(string)}
		for _, m := range e[1:3] {
			for _, x := range m.([]any) {
				fields = append(fields, strconv.Itoa(int(x.(float64))))
			}
		}
		for _, v := range e[3:] {
			switch v := v.(type) {
			case nil:
				fields = append(fields, "null")
			case bool:
				fields = append(fields, strconv.FormatBool(v))
			case string:
				fields = append(fields, quote(v))
			default:
				t.Fatalf("unexpected field %v", v)
			}
		}
		b.WriteString(strings.Join(fields, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

var errorKinds = map[string]ErrorKind{
	"ReaderError": ReaderError, "ScannerError": ScannerError, "ParserError": ParserError,
}

// sameError reports how err differs from libyaml's want, or "".
func sameError(want *fixtureError, err *Error) string {
	if want == nil && err == nil {
		return ""
	}
	if want == nil {
		return fmt.Sprintf("libyaml reads it; we refuse it: %v", err)
	}
	if err == nil {
		return fmt.Sprintf("libyaml refuses it (%s: %s); we read it", want.Kind, want.Problem)
	}
	got := fmt.Sprintf("%v %q %v", err.Kind, err.Problem, []int{err.ProblemMark.Index, err.ProblemMark.Line, err.ProblemMark.Column})
	exp := fmt.Sprintf("%v %q %v", errorKinds[want.Kind], want.Problem, want.ProblemMark)
	if want.Kind == "ReaderError" {
		got = fmt.Sprintf("%v %q %d", err.Kind, err.Problem, err.ProblemMark.Offset)
		exp = fmt.Sprintf("%v %q %d", ReaderError, want.Problem, want.Position)
	} else {
		if err.Context != "" || want.Context != "" {
			got += fmt.Sprintf(" %q %v", err.Context, []int{err.ContextMark.Index, err.ContextMark.Line, err.ContextMark.Column})
			exp += fmt.Sprintf(" %q %v", want.Context, want.ContextMark)
		}
	}
	if got != exp {
		return fmt.Sprintf("error %s, libyaml's %s", got, exp)
	}
	return ""
}

// TestLibyamlCases compares the reader's events, or its error and the
// events before it, with libyaml's for each of the fixture's texts.
func TestLibyamlCases(t *testing.T) {
	f := loadFixture(t)
	for i, c := range f.Cases {
		data := c.data(t)
		evs, err := events(data)
		want := c.Events
		if c.Error != nil {
			want = c.EventsBefore
		}
		if d := sameError(c.Error, err); d != "" {
			t.Errorf("case %d %q: %s", i, data, d)
			continue
		}
		if c.Error != nil && c.Error.Kind == "ReaderError" {
			continue
		}
		// libyaml's parser may give an event before the error that ours,
		// stopping at the same error, gives too: compare them all.
		if got, exp := canonical(evs), fixtureCanonical(t, want); got != exp {
			t.Errorf("case %d %q: events\n%s\nlibyaml's\n%s", i, data, got, exp)
		}
	}
}

// fuzzInputs are the texts of testdata/fuzz_inputs.json.
func fuzzInputs(t testing.TB) [][]byte {
	b, err := os.ReadFile("testdata/fuzz_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Inputs []fixtureCase `json:"inputs"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, len(table.Inputs))
	for i, c := range table.Inputs {
		out[i] = c.data(t)
	}
	return out
}

// TestLibyamlFuzzInputs compares the reader's events and errors with
// libyaml's on the texts fuzzing found. Where libyaml gives a tag that is
// not UTF-8 (a %-escape of a malformed sequence), which PyYAML cannot
// decode, the reader gives the same bytes.
func TestLibyamlFuzzInputs(t *testing.T) {
	f := loadFixture(t)
	inputs := fuzzInputs(t)
	if len(inputs) != len(f.Fuzz) || len(inputs) == 0 {
		t.Fatalf("%d inputs, %d recorded: run python -m scripts.gen_libyaml_events", len(inputs), len(f.Fuzz))
	}
	for i, data := range inputs {
		want := f.Fuzz[i]
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != want.SHA256 {
			t.Fatalf("%s changed since the fixture was written: run python -m scripts.gen_libyaml_events", want.Name)
		}
		evs, err := events(data)
		if want.Error != nil && want.Error.Kind == "UnicodeDecodeError" {
			if err != nil || utf8.ValidString(canonicalRaw(evs)) {
				t.Errorf("%s %q: %v, or every event is UTF-8", want.Name, data, err)
			}
			continue
		}
		if d := sameError(want.Error, err); d != "" {
			t.Errorf("%s %q: %s", want.Name, data, d)
			continue
		}
		sum = sha256.Sum256([]byte(canonical(evs)))
		if hex.EncodeToString(sum[:]) != want.EventsSHA256 {
			t.Errorf("%s %q: events differ from libyaml's:\n%s", want.Name, data, canonical(evs))
		}
	}
}

// canonicalRaw is the events' strings as they are.
func canonicalRaw(evs []event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.anchor + e.tag + e.value)
	}
	return b.String()
}

// TestLibyamlFiles compares the reader's events (by their digest) and
// errors with libyaml's for every document of the conformance vectors,
// tests/data, examples/ and the shared problem table.
func TestLibyamlFiles(t *testing.T) {
	f := loadFixture(t)
	for _, file := range f.Files {
		data := fileData(t, file.Name)
		if utf16BOM(data) {
			continue // the library refuses UTF-16 before reading; the reader reads UTF-8 only
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != file.SHA256 {
			t.Errorf("%s changed since the fixture was written: run python -m scripts.gen_libyaml_events", file.Name)
			continue
		}
		evs, err := events(data)
		if err != nil && err.Kind == ReaderError && err.ProblemMark.Offset >= libyamlChunk &&
			file.Error != nil && file.Error.Kind != "ReaderError" {
			continue // difference "reader-chunks": libyaml meets the character only as its chunk is decoded
		}
		if d := sameError(file.Error, err); d != "" {
			t.Errorf("%s: %s", file.Name, d)
			continue
		}
		if doc, err := Parse(data, Options{}); err == nil {
			if d := checkOffsets(data, doc); d != "" {
				t.Errorf("%s: %s", file.Name, d)
			}
		}
		sum = sha256.Sum256([]byte(canonical(evs)))
		if hex.EncodeToString(sum[:]) != file.EventsSHA256 {
			t.Errorf("%s: events differ from libyaml's (python -m scripts.gen_libyaml_events --show %s):\n%s",
				file.Name, file.Name, canonical(evs))
		}
	}
}

// libyamlChunk is how many bytes of its input libyaml decodes at a time
// (YAML_RAW_BUFFER_SIZE): a refused character past the first chunk is met
// only once the scanner gets there.
const libyamlChunk = 16384

// utf16BOM reports whether data starts with a UTF-16 byte order mark.
func utf16BOM(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xFE && data[1] == 0xFF || data[0] == 0xFF && data[1] == 0xFE)
}

// checkOffsets reports a node of doc whose marks' byte offsets do not
// point where their character indexes do.
func checkOffsets(data []byte, doc *Document) string {
	if doc == nil || doc.Root == nil {
		return ""
	}
	start := 0
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		start = 3
	}
	var walk func(n *Node) string
	walk = func(n *Node) string {
		for _, m := range []Mark{n.Start, n.End} {
			if m.Offset < start || m.Offset > len(data) || utf8.RuneCount(data[start:m.Offset]) != m.Index {
				return fmt.Sprintf("mark %+v of a node at byte %d", m, n.Start.Offset)
			}
		}
		if n.Kind == AliasNode {
			return ""
		}
		for _, c := range n.Content {
			if d := walk(c); d != "" {
				return d
			}
		}
		return ""
	}
	return walk(doc.Root)
}
