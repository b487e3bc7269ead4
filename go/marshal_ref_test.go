package taskspec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	"github.com/taskspec/taskspec/go/internal/eval"
)

// MarshalYAML marshals a spec once: the difficulty_signals keys a cyclic
// comparison would scatter go through orderedKey, and each literal block to
// fix is rendered in a small document of its own. refMarshalMirror is the
// writer it replaced, which marshalled the whole document again for each
// fix: a second time with every fix site replaced by a token, once more per
// site, and once without the signals, to cut their block out and put it back
// in order. The two must write the same bytes for every spec.

func refMarshalMirror(m *eval.TaskSpec) ([]byte, error) {
	out, err := yaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	sites := literalFixSites(m)
	if needsFixedKeyOrder(m.DifficultySignals) && len(sites) == 0 {
		if out, err = refReorderSignals(m, out); err != nil {
			return nil, err
		}
	}
	if len(sites) > 0 { // fixLiterals puts the signals in the fixed order too
		if out, err = refFixLiterals(m, out, sites); err != nil {
			return nil, err
		}
	}
	if signalKeysNeedFix(m.DifficultySignals) {
		out = fixSignalKeys(out)
	}
	return out, nil
}
func refFixLiterals(m *eval.TaskSpec, full []byte, sites []fixSite) ([]byte, error) {
	orig := make([]string, len(sites))
	tokens := make([]string, len(sites))
	salt := 0
	for i := range sites {
		orig[i] = *sites[i].field
		for {
			tokens[i] = "taskspecfix" + strconv.Itoa(i) + "z" + strconv.Itoa(salt)
			if !bytes.Contains(full, []byte(tokens[i])) {
				break
			}
			salt++
		}
	}
	defer func() {
		for i, s := range sites {
			*s.field = orig[i]
		}
	}()
	for i, s := range sites {
		*s.field = tokens[i]
	}
	base, err := yaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	// The renderings are located in documents without difficulty_signals:
	// yaml.v3 orders some key sets differently from one Marshal to the next
	// (see reorderSignals), and a string's rendering does not depend on them.
	signals := m.DifficultySignals
	m.DifficultySignals = nil
	defer func() { m.DifficultySignals = signals }()
	bare, err := yaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	rendered := make([][]byte, len(sites))
	replaced := make([][]byte, len(sites))
	for i, s := range sites {
		*s.field = orig[i]
		one, err := yaml.Marshal(m)
		*s.field = tokens[i]
		if err != nil {
			return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
		}
		at := bytes.Index(bare, []byte(tokens[i]))
		if at < 0 {
			return nil, errLocate
		}
		pre, suf := bare[:at], bare[at+len(tokens[i]):]
		replaced[i] = []byte(tokens[i])
		if swallowsBreak(orig[i]) && bytes.HasPrefix(suf, []byte("\n")) {
			// The token's line break is part of this rendering: see swallowsBreak.
			suf = suf[1:]
			replaced[i] = append(replaced[i], '\n')
		}
		if !bytes.HasPrefix(one, pre) || !bytes.HasSuffix(one, suf) || len(one) < len(pre)+len(suf) {
			return nil, errLocate
		}
		rendered[i] = fixHeader(one[len(pre):len(one)-len(suf)], orig[i], s.nested)
	}
	out, outBare := base, bare
	for i := range sites {
		out = bytes.Replace(out, replaced[i], rendered[i], 1)
		outBare = bytes.Replace(outBare, replaced[i], rendered[i], 1)
	}
	if needsFixedKeyOrder(signals) {
		// base has yaml.v3's order, which varies for such a key set; outBare
		// is the same document, fixed, without the signals.
		return refReorderSignalsAgainst(&eval.TaskSpec{DifficultySignals: signals}, out, outBare)
	}
	return out, nil
}

func refReorderSignals(m *eval.TaskSpec, out []byte) ([]byte, error) {
	without := *m
	without.DifficultySignals = nil
	rest, err := yaml.Marshal(&without)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	return refReorderSignalsAgainst(m, out, rest)
}
func refReorderSignalsAgainst(m *eval.TaskSpec, out, rest []byte) ([]byte, error) {
	const head = "difficulty_signals:\n"
	keys := make([]string, 0, len(m.DifficultySignals))
	for k := range m.DifficultySignals {
		keys = append(keys, k)
	}
	var block bytes.Buffer
	for _, k := range fixedKeyOrder(keys) {
		one, err := yaml.Marshal(map[string]map[string]int{"difficulty_signals": {k: m.DifficultySignals[k]}})
		if err != nil {
			return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
		}
		block.Write(one[len(head):])
	}
	// The block starts at the line where out and rest first differ.
	at := 0
	for at < len(rest) && at < len(out) && out[at] == rest[at] {
		at++
	}
	at = bytes.LastIndexByte(out[:at], '\n') + 1
	end := at + len(head) + block.Len()
	if !bytes.HasPrefix(out[at:], []byte(head)) || end+len(rest)-at != len(out) || !bytes.Equal(out[end:], rest[at:]) {
		return nil, fmt.Errorf("%smarshal task spec: difficulty_signals: cannot find the block yaml.v3 wrote", errPrefix)
	}
	fixed := make([]byte, 0, len(out))
	fixed = append(fixed, out[:end-block.Len()]...)
	fixed = append(fixed, block.Bytes()...)
	return append(fixed, out[end:]...), nil
}

// sameAsRef fails t unless marshalMirror and refMarshalMirror write the same
// bytes, or fail alike, for spec.
func sameAsRef(t *testing.T, name string, spec *taskspecv1.TaskSpec) {
	t.Helper()
	m, err := toMirror(spec)
	if err != nil {
		return
	}
	got, gerr := marshalMirror(m)
	want, werr := refMarshalMirror(m)
	if (gerr != nil) != (werr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("%s: MarshalYAML writes\n%q (%v); the writer it replaced\n%q (%v)", name, got, gerr, want, werr)
	}
	again, err := marshalMirror(m)
	if err != nil || !bytes.Equal(again, got) {
		t.Fatalf("%s: a second MarshalYAML writes %q (%v), the first %q", name, again, err, got)
	}
}

func TestMarshalSameAsRefVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "tests", "conformance", "vectors", "*", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if spec, err := DecodeYAML(data); err == nil {
			sameAsRef(t, f, spec)
		}
	}
}

// refPieces are what the random strings are made of: the characters and
// words that decide how yaml.v3 writes a string or orders keys, the tokens
// the writers put in place of a string, and plain text.
var refPieces = []string{
	"a", "b", "x y", " ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029",
	"#", ": ", "- ", "<<", "|", ">", "'", "\"", "~", "null", "yes", "0", "7", "10",
	"1234567890123456789", "92233720368547758089", "\u0661", "\U0001e4d0", "é", "🙂",
	"taskspecfix0z0", "taskspecfix1z0", "taskspecfix0z1", "...", "---",
	// A long line of words, which a writer with a line width would fold.
	"lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor",
}

func refString(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(6); n > 0; n-- {
		b.WriteString(refPieces[r.IntN(len(refPieces))])
	}
	return b.String()
}

func refStrings(r *rand.Rand) []string {
	var out []string
	for n := r.IntN(4); n > 0; n-- {
		out = append(out, refString(r))
	}
	return out
}

func randomRefSpec(r *rand.Rand) *taskspecv1.TaskSpec {
	spec := &taskspecv1.TaskSpec{
		TaskSpecVersion: 1,
		TaskId:          refString(r),
		Language:        taskspecv1.Language_LANGUAGE_GO,
		Difficulty:      taskspecv1.Difficulty_DIFFICULTY_EASY,
		GeneratedFrom: &taskspecv1.GeneratedFrom{
			Kind:       taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE,
			TemplateId: refString(r),
		},
		Prompt:       refString(r),
		Verification: &taskspecv1.Verification{BuildCmd: refStrings(r), TestCmd: refStrings(r)},
	}
	if r.IntN(2) == 0 {
		spec.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: refString(r), SeedSymbol: refString(r)}
	}
	if r.IntN(2) == 0 {
		spec.Verification.TimeoutSeconds = r.Int64N(100)
	}
	for n := r.IntN(3); n > 0; n-- {
		spec.SolutionArtifacts = append(spec.SolutionArtifacts,
			&taskspecv1.SolutionArtifact{Path: refString(r), Role: refString(r)})
	}
	if n := r.IntN(8); n > 0 {
		spec.DifficultySignals = map[string]int64{}
		for ; n > 0; n-- {
			spec.DifficultySignals[refString(r)] = r.Int64N(1000) - 500
		}
	}
	return spec
}

func TestMarshalSameAsRefRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		spec := randomRefSpec(r)
		sameAsRef(t, "random spec "+strconv.Itoa(i), spec)
	}
}

// FuzzMarshalSameAsRef puts arbitrary strings in every position yaml.v3
// lays out differently, several of them at once, and a key set that may need
// the fixed order, and compares MarshalYAML with the writer it replaced.
func FuzzMarshalSameAsRef(f *testing.F) {
	for _, s := range []string{" a\nb", "\na", "\tx\ny", "<<", "a\n\n", " x\ny\n\n", "\u2028a", "a\u2028", " a\n\u2029", "1234567890123456789"} {
		f.Add(s, s, s, "\u0661"+s, uint8(0xff))
	}
	f.Fuzz(func(t *testing.T, a, b, c, key string, mask uint8) {
		for _, s := range []string{a, b, c, key} {
			if !utf8.ValidString(s) {
				return
			}
		}
		pick := func(bit uint8, s string) string {
			if mask&bit != 0 {
				return s
			}
			return "x"
		}
		spec := &taskspecv1.TaskSpec{
			TaskSpecVersion:   1,
			TaskId:            pick(1, a),
			Language:          taskspecv1.Language_LANGUAGE_GO,
			Difficulty:        taskspecv1.Difficulty_DIFFICULTY_EASY,
			DifficultySignals: map[string]int64{key: 1, a: 2, "9223372036854775808": 3, "1ze3": 4, "92\U0001e4d0": 5},
			GeneratedFrom: &taskspecv1.GeneratedFrom{
				Kind: taskspecv1.GeneratedKind_GENERATED_KIND_KG_TEMPLATE, TemplateId: pick(2, b),
				KgQuery: &taskspecv1.KGQuery{Intent: pick(4, c), SeedSymbol: pick(8, a)},
			},
			Prompt:            pick(16, b),
			SolutionArtifacts: []*taskspecv1.SolutionArtifact{{Path: pick(32, c), Role: pick(32, a)}},
			Verification:      &taskspecv1.Verification{BuildCmd: []string{pick(64, a)}, TestCmd: []string{b, c}},
		}
		if mask&128 != 0 {
			spec.Verification.TimeoutSeconds = 5
		}
		sameAsRef(t, "fuzzed spec", spec)
	})
}
