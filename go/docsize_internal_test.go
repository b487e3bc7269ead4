package taskspec

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// hardStrings are strings that yaml.v3 writes at their longest, or that
// take each style: escapes of every length, a leading byte-order mark (which
// has yaml.v3 escape every character after it), line breaks of each kind,
// short lines (a line's indentation outweighs it), quotes, text that must be
// quoted to read back as a string, long keys (past 128 bytes a map key is
// written as "? key"), the keys and texts MarshalYAML repairs, and long
// lines, which yaml.v3 never folds.
var hardStrings = []string{
	"", "x", " ", "yes", "No", "~", "null", "0x1F", "1e3", "-", "- x", "a: b", "a #b", "#", "[x", "{x", "*a", "&a",
	"!t", "|", ">", "'", `"`, "%x", "@x", "`x", "<<", "?", ":", "12:30", "1_000",
	"\x00\x01\x02\x7f", strings.Repeat("\x01", 64), strings.Repeat("\x1b\x07", 32),
	"\ufeff", "\ufeffab c\n", "\ufeff" + strings.Repeat("a", 100), "\ufeff" + strings.Repeat("\u00e9\u4e2d\U0001F600", 20),
	"a\ufeffb", "\ufffe\uffff", "\u0080\u0085\u009f\u00a0", "\u00ad", "\u2028", "\u2029", "x\u2028", "x\u2029y",
	strings.Repeat("\U0001F600", 40), "emoji \U0001F600 in text\n", strings.Repeat("\u00e9", 100),
	strings.Repeat("\u4e2d\u6587", 100), strings.Repeat("\u0416", 100),
	"a\n", "a\nb", "\n", "\n\n", "a\n\n", "\r", "a\rb", "a\r\nb\r\n", "\u0085", "a\u0085b",
	strings.Repeat("a\n", 200), strings.Repeat("\n", 200), strings.Repeat("a\r", 200), strings.Repeat("a\u0085", 100),
	strings.Repeat("a\u2028", 100), strings.Repeat("'a'\n", 100), strings.Repeat("'", 100), strings.Repeat(`\"`, 100),
	" a\nb", "  a\n", "a \nb", "a\n ", "\ta\nb", "\t", "a\t", "\n a", "\nx\n", " \n", strings.Repeat(" a\n", 100),
	strings.Repeat("x", 129), strings.Repeat("x", 128), strings.Repeat("word ", 2000), strings.Repeat("y", 10000),
	strings.Repeat("a b: c # d ", 300), strings.Repeat("a\n", 5000), strings.Repeat("\x01\x1f", 5000), "line one\nline two\n\n    indented\n\ttabbed \\ \"quoted\" 'single'\n",
}

// fillScalars sets every integer of m (a field, a map's values) to the
// longest it can be written, every enum to its longest defined value, and
// every message field to a message, recursively: each as long as YAML can
// write it.
func fillScalars(m protoreflect.Message) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch {
		case fd.IsMap():
			if v, ok := longestNumber(fd.MapValue()); ok {
				mp := m.Mutable(fd).Map()
				mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
					mp.Set(k, v)
					return true
				})
			}
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			l := m.Mutable(fd).List()
			for j := range l.Len() {
				fillScalars(l.Get(j).Message())
			}
		case fd.IsList():
		case fd.Kind() == protoreflect.MessageKind:
			fillScalars(m.Mutable(fd).Message())
		default:
			if v, ok := longestNumber(fd); ok {
				m.Set(fd, v)
			}
		}
	}
}

func longestNumber(fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(math.MinInt32), true
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(math.MinInt64), true
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		best := values.Get(0)
		for i := range values.Len() {
			if v := values.Get(i); len(v.Name()) > len(best.Name()) {
				best = v
			}
		}
		return protoreflect.ValueOfEnum(best.Number()), true
	}
	return protoreflect.Value{}, false
}

// boundCases returns specs built of hardStrings: every string slot (from
// the descriptor, see stringSlots) holding one string, each slot a
// different one with three items in each list and entries in each map, and
// each of those with its numbers and enums at their longest.
func boundCases() map[string]*taskspecv1.TaskSpec {
	bySlot := stringSlots((&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor(), "", func(s *taskspecv1.TaskSpec) protoreflect.Message {
		return s.ProtoReflect()
	})
	// The slots in the order of their paths, so that the cases are the
	// same on every run.
	names := slices.Sorted(maps.Keys(bySlot))
	out := map[string]*taskspecv1.TaskSpec{}
	for i, s := range hardStrings {
		all := &taskspecv1.TaskSpec{}
		for _, name := range names {
			bySlot[name](all, s)
		}
		mixed := &taskspecv1.TaskSpec{}
		k := i
		for _, name := range names {
			for range 3 {
				bySlot[name](mixed, hardStrings[k%len(hardStrings)])
				k += 7
			}
		}
		out[quoteCase("every slot", s)] = all
		out[quoteCase("mixed from", s)] = mixed
		for name, spec := range map[string]*taskspecv1.TaskSpec{"every slot": all, "mixed from": mixed} {
			filled := proto.Clone(spec).(*taskspecv1.TaskSpec)
			fillScalars(filled.ProtoReflect())
			out[quoteCase(name+", long numbers", s)] = filled
		}
	}
	// Each slot alone holding many short lines: what a line break costs
	// there dwarfs the bytes the bound allows for the fields left empty, so
	// a bound that counts a break too short fails on the deepest slot
	// however many fields the schema has.
	for _, name := range names {
		lines := &taskspecv1.TaskSpec{}
		bySlot[name](lines, strings.Repeat("a\n", 2000))
		out["short lines in "+name] = lines
	}
	out["empty"] = &taskspecv1.TaskSpec{}
	many := &taskspecv1.TaskSpec{}
	fillScalars(many.ProtoReflect())
	for range 50 {
		many.SolutionArtifacts = append(many.SolutionArtifacts, &taskspecv1.SolutionArtifact{})
		many.Verification.TestCmd = append(many.Verification.TestCmd, "")
	}
	out["empty items"] = many
	return out
}

func quoteCase(name, s string) string {
	if len(s) > 24 {
		s = s[:24]
	}
	return name + " " + strings.ToValidUTF8(s, "?")
}

// unsound returns a case whose canonical YAML is longer than bound says,
// with both lengths, or "" when bound holds for every case.
func unsound(t *testing.T, cases map[string]*taskspecv1.TaskSpec, bound func(*taskspecv1.TaskSpec) int) (string, int, int) {
	t.Helper()
	for name, spec := range cases {
		out, err := MarshalYAML(spec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := bound(spec); b < len(out) {
			return name, b, len(out)
		}
	}
	return "", 0, 0
}

// The bound is never under the length of the canonical YAML, for strings
// in every style in every place, long numbers and enums, and empty items:
// neither the bound from the strings' lengths nor the one from their
// characters, nor sizeBound, which takes one of them.
func TestSizeBoundIsNeverUnderTheSize(t *testing.T) {
	cases := boundCases()
	perBreak := shape.indent + 1
	for what, str := range map[string]func(string, int) (int, bool){
		"sizeBound": nil, "stringBound": stringBound, "quickBound": quickBound,
	} {
		name, bound, size := unsound(t, cases, func(s *taskspecv1.TaskSpec) int {
			b, valid := sizeBound(s)
			if str != nil {
				b, valid = boundWith(s, perBreak, shape, str)
			}
			if !valid {
				t.Fatalf("%s: valid strings found invalid", what)
			}
			return b
		})
		if name != "" {
			t.Errorf("%s: %s: bound %d, canonical YAML %d bytes", what, name, bound, size)
		}
	}
	for _, s := range hardStrings {
		if b, q := first(stringBound(s, perBreak)), first(quickBound(s, perBreak)); b > q {
			t.Errorf("%q: stringBound %d, over quickBound %d", s, b, q)
		}
	}
}

func first(n int, _ bool) int { return n }

// A bound with any of its parts made smaller is caught by the cases of
// TestSizeBoundIsNeverUnderTheSize: each part is needed, and those cases
// would notice a bound that is too small.
func TestSizeBoundWithAPartLeftOutIsCaught(t *testing.T) {
	cases := boundCases()
	perBreak := shape.indent + 1
	withStr := func(str func(string, int) (int, bool)) func(*taskspecv1.TaskSpec) int {
		return func(s *taskspecv1.TaskSpec) int {
			return first(boundWith(s, perBreak, shape, str))
		}
	}
	mutations := map[string]func(*taskspecv1.TaskSpec) int{
		"a string's bytes and quotes": withStr(func(s string, _ int) (int, bool) { return len(s) + 3, true }),
		"a string's length, four times": withStr(func(s string, _ int) (int, bool) {
			return 4*len(s) + 3, true
		}),
		"lines indented a level less": func(s *taskspecv1.TaskSpec) int {
			return first(boundWith(s, perBreak-4, shape, stringBound))
		},
		"the bytes beside the strings left out": func(s *taskspecv1.TaskSpec) int {
			return first(boundWith(s, perBreak, &sizeShape{}, stringBound))
		},
		"the list items' and map entries' bytes left out": func(s *taskspecv1.TaskSpec) int {
			return first(boundWith(s, perBreak, &sizeShape{fields: shape.fields}, stringBound))
		},
		"no escape after a byte-order mark": withStr(func(s string, pb int) (int, bool) {
			if rest, ok := strings.CutPrefix(s, byteOrderMark); ok {
				b, valid := stringBound(rest, pb)
				return b + escapeLen(0xfeff), valid
			}
			return stringBound(s, pb)
		}),
		"characters past U+FFFF printable": withStr(func(s string, pb int) (int, bool) {
			b, valid := stringBound(s, pb)
			for _, r := range s {
				if r > 0xffff {
					b -= escapeLen(r) - utf8.RuneLen(r)
				}
			}
			return b, valid
		}),
		"escapes one byte shorter": withStr(func(s string, pb int) (int, bool) {
			b, valid := stringBound(s, pb)
			for _, r := range s {
				if r < 0x20 {
					b--
				}
			}
			return b, valid
		}),
	}
	for what, bound := range mutations {
		if name, _, _ := unsound(t, cases, bound); name == "" {
			t.Errorf("%s: no case finds the bound too small", what)
		}
	}
}

// An ordinary spec of 5 MiB, in prose, code, CJK text or many signals, is
// well within the limit by its bound, so that Validate never writes it out.
func TestSizeBoundSparesOrdinarySpecs(t *testing.T) {
	line := "Implement `mathx.GCD` so that the tests pass; GCD(a, 0) == |a| \u2014 10\u00d7 faster. #214\n"
	code := "\tif got := GCD(0, 0); got != 0 {\n\t\tt.Fatalf(\"GCD = %d\", got)\n\t}\n"
	signals := map[string]int64{}
	for i := range 60000 {
		signals["signal_"+strings.Repeat("x", i%40)+string(rune('a'+i%26))+strings.Repeat("9", i/1000)] = int64(i)
	}
	for name, spec := range map[string]*taskspecv1.TaskSpec{
		"prose":   {Prompt: strings.Repeat(line, 5<<20/len(line))},
		"code":    {Prompt: strings.Repeat(code, 5<<20/len(code))},
		"cjk":     {Prompt: strings.Repeat("\u4e2d\u6587\u7684\u63d0\u793a\u3002\n", 5<<20/22)},
		"signals": {DifficultySignals: signals, Prompt: strings.Repeat(line, 3<<20/len(line))},
		"commands": {Verification: &taskspecv1.Verification{
			TestCmd: strings.Split(strings.Repeat("go test ./...,", 5<<20/24), ",")}},
	} {
		bound, _ := sizeBound(spec)
		out, err := MarshalYAML(spec)
		if err != nil {
			t.Fatal(err)
		}
		if bound > MaxDocumentBytes || bound < len(out) {
			t.Errorf("%s: bound %d for %d bytes of YAML", name, bound, len(out))
		}
	}
}

// Around the limit, Validate's decision and message are those of the old
// definition, len(MarshalYAML) > MaxDocumentBytes: for specs whose canonical
// YAML is one byte under, at, and one byte over the limit, its bulk a
// prompt that is a literal block, a double-quoted one full of escapes, one
// long plain line, or short lines nested three levels deep (seven bytes of
// YAML a byte, more than the six the bound before this one allowed), beside
// map entries and list items that need quotes. An "x" at the end of the
// prompt adds one byte in any style, to reach each size.
func TestSizeDecisionAtTheLimit(t *testing.T) {
	signals := map[string]int64{}
	for i, s := range hardStrings {
		signals[s] = int64(-i)
	}
	const bulk = MaxDocumentBytes - 1<<20
	literal := "A line with `code`, \"quotes\", 'ticks', a \\ and \u00e9\u4e2d \u2014 #1: x\n"
	quoted := "\x01 escaped \U0001F600 line\n"
	plain := "one long line, never folded "
	families := map[string]func(*taskspecv1.TaskSpec){
		"literal":       func(s *taskspecv1.TaskSpec) { s.Prompt = strings.Repeat(literal, bulk/(len(literal)+4)) },
		"double-quoted": func(s *taskspecv1.TaskSpec) { s.Prompt = strings.Repeat(quoted, bulk/30) },
		"plain":         func(s *taskspecv1.TaskSpec) { s.Prompt = strings.Repeat(plain, bulk/len(plain)) },
		"nested lines": func(s *taskspecv1.TaskSpec) {
			s.GeneratedFrom.KgQuery = &taskspecv1.KGQuery{Intent: strings.Repeat("a\n", bulk/14)}
		},
	}
	if testing.Short() {
		delete(families, "plain")
		delete(families, "double-quoted")
	}
	for name, fill := range families {
		spec := &taskspecv1.TaskSpec{
			TaskSpecVersion: 1, TaskId: "t", DifficultySignals: signals, GeneratedFrom: &taskspecv1.GeneratedFrom{},
			Verification: &taskspecv1.Verification{TestCmd: hardStrings, BuildCmd: []string{"a\nb", "yes"}},
		}
		fill(spec)
		prompt := spec.Prompt
		spec.Prompt = prompt + "x"
		out, err := MarshalYAML(spec)
		if err != nil {
			t.Fatal(err)
		}
		filler := MaxDocumentBytes - 1 - len(out)
		if filler < 0 || filler > 2<<20 {
			t.Fatalf("%s: %d bytes of YAML before the filler", name, len(out))
		}
		for _, size := range []int{MaxDocumentBytes - 1, MaxDocumentBytes, MaxDocumentBytes + 1} {
			spec.Prompt = prompt + strings.Repeat("x", 1+filler+size-(MaxDocumentBytes-1))
			out, err := MarshalYAML(spec)
			if err != nil || len(out) != size {
				t.Fatalf("%s: %d bytes of YAML, want %d (%v)", name, len(out), size, err)
			}
			var got []Violation
			for _, v := range Violations(spec) {
				if v.Code == CodeTooLarge {
					got = append(got, v)
				}
			}
			tooBig := len(out) > MaxDocumentBytes
			if tooBig != (len(got) == 1) || len(got) > 1 || (tooBig && got[0].Message != tooLarge(len(out))) {
				t.Errorf("%s, %d bytes: got %v", name, len(out), got)
			}
		}
	}
}

// FuzzSizeBound checks the bound against the length of the canonical YAML
// for any string, put in every string slot of a spec, n times in lists and
// maps, with the numbers at their longest or not.
func FuzzSizeBound(f *testing.F) {
	for i, s := range hardStrings {
		f.Add(s, uint8(i))
	}
	slots := stringSlots((&taskspecv1.TaskSpec{}).ProtoReflect().Descriptor(), "", func(s *taskspecv1.TaskSpec) protoreflect.Message {
		return s.ProtoReflect()
	})
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		spec := &taskspecv1.TaskSpec{}
		for _, set := range slots {
			for j := range int(n%4) + 1 {
				set(spec, s+strings.Repeat("\n", j))
			}
		}
		if n&4 != 0 {
			fillScalars(spec.ProtoReflect())
		}
		bound, valid := sizeBound(spec)
		if valid != utf8.ValidString(s) {
			t.Fatalf("valid = %v for %q", valid, s)
		}
		perBreak := shape.indent + 1
		if b, q := first(stringBound(s, perBreak)), first(quickBound(s, perBreak)); b > q {
			t.Fatalf("%q: stringBound %d, over quickBound %d", s, b, q)
		}
		quick, _ := boundWith(spec, perBreak, shape, quickBound)
		precise, _ := boundWith(spec, perBreak, shape, stringBound)
		out, err := MarshalYAML(spec)
		if err != nil {
			if valid {
				t.Fatalf("MarshalYAML of a valid spec: %v", err)
			}
			return
		}
		if min(bound, quick, precise) < len(out) {
			t.Fatalf("bounds %d, %d, %d; canonical YAML %d bytes:\n%s", bound, quick, precise, len(out), out)
		}
	})
}
