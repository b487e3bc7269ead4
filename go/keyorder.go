package taskspec

import (
	"sort"
	"strings"
	"unicode"
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

// An orderedKey is a map key as MarshalYAML hands it to yaml.v3 when the
// keys must come in the fixed order: the key's place in that order, written
// in letters of equal width, a space, and the key. yaml.v3 sorts such keys
// by their first differing rune, a letter in both, so by place; and it
// writes each as the string its MarshalYAML returns, the key alone, as it
// writes a key of a map[string]int. The document is then marshalled once,
// with no block to cut out and put back in order.
type orderedKey string

// MarshalYAML returns the key without its place.
func (k orderedKey) MarshalYAML() (any, error) {
	return string(k[strings.IndexByte(string(k), ' ')+1:]), nil
}

// orderedIntMap keys m by orderedKey, in the fixed order.
func orderedIntMap(m map[string]int) map[orderedKey]int {
	if m == nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	width := 1
	for n := 26; n < len(keys); n *= 26 {
		width++
	}
	out := make(map[orderedKey]int, len(m))
	place := make([]byte, width+1)
	place[width] = ' '
	for i, k := range fixedKeyOrder(keys) {
		for j, n := width-1, i; j >= 0; j, n = j-1, n/26 {
			place[j] = byte('a' + n%26)
		}
		out[orderedKey(string(place)+k)] = m[k]
	}
	return out
}
