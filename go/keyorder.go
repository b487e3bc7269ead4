package taskspec

import (
	"bytes"
	"fmt"
	"sort"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/taskspec/taskspec/go/internal/eval"
)

// yaml.v3 writes a Go map's keys sorted by its keyList.Less, which reads
// digit runs as int64 numbers with rune - '0' as each digit's value. On a
// key with a run of 19 or more digits (which wraps) or with a decimal digit
// of another script (U+0661 counts as 1585), that comparison can be cyclic
// ("9223372036854775808" < "1ze3" < "92\U0001e4d0" < "9223372036854775808").
// yaml.v3 then sorts a Go map, which it reads in random order, into an
// order that changes from run to run, and so does the Go package. For such
// a key set both libraries write one fixed order instead: the keys in
// code point order, merge-sorted by yaml.v3's comparison (sorted_items in
// python/taskspec/bridge/_keyorder.py). For a set the comparison orders
// consistently, that is the order yaml.v3 writes; tests/data/emit/
// key_orders.json holds both kinds, and both test suites read it.

// yamlKeyLess is yaml.v3's keyList.Less for two string keys.
func yamlKeyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		// Whether the last shared rune is a digit.
		digits := i > 0 && unicode.IsDigit(ar[i-1])
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			if digits {
				return al
			}
			return bl
		}
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// needsFixedKeyOrder reports whether a key has what can make yaml.v3's
// comparison cyclic: a decimal digit that is not ASCII, or a run of 19 or
// more ASCII digits. Without either, the comparison is a total order.
func needsFixedKeyOrder(sig map[string]int) bool {
	for k := range sig {
		run := 0
		for _, r := range k {
			switch {
			case r >= '0' && r <= '9':
				if run++; run >= 19 {
					return true
				}
			case r > unicode.MaxASCII && unicode.IsDigit(r):
				return true
			default:
				run = 0
			}
		}
	}
	return false
}

// fixedKeyOrder sorts keys into the fixed order: code point order (Go's
// string order, as the keys are valid UTF-8), then a top-down merge sort by
// yamlKeyLess whose left half holds len/2 keys and which takes the left key
// unless the right one is less. The Python library sorts with the same
// algorithm, so a cyclic set comes out the same in both.
func fixedKeyOrder(keys []string) []string {
	sort.Strings(keys)
	var mergeSort func(s []string) []string
	mergeSort = func(s []string) []string {
		if len(s) < 2 {
			return s
		}
		left, right := mergeSort(s[:len(s)/2]), mergeSort(s[len(s)/2:])
		out := make([]string, 0, len(s))
		i, j := 0, 0
		for i < len(left) && j < len(right) {
			if yamlKeyLess(right[j], left[i]) {
				out = append(out, right[j])
				j++
			} else {
				out = append(out, left[i])
				i++
			}
		}
		out = append(out, left[i:]...)
		return append(out, right[j:]...)
	}
	return mergeSort(keys)
}

// reorderSignals rewrites the difficulty_signals block of out, which
// yaml.Marshal wrote for m, in the fixed order. Each entry is marshalled on
// its own under the same top-level key, so its bytes are the bytes it has in
// out (an entry does not depend on its neighbours); the block is found as
// the difference between out and m marshalled without signals, and must be
// exactly as long as the entries together.
func reorderSignals(m *eval.TaskSpec, out []byte) ([]byte, error) {
	without := *m
	without.DifficultySignals = nil
	rest, err := yaml.Marshal(&without)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	return reorderSignalsAgainst(m, out, rest)
}

// reorderSignalsAgainst is reorderSignals with rest, the document out is
// without its signals, given (fixLiterals gives the one it wrote).
func reorderSignalsAgainst(m *eval.TaskSpec, out, rest []byte) ([]byte, error) {
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
