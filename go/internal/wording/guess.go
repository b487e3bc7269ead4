package wording

import (
	"strings"
)

// Guess returns the candidate word was most likely meant to be, or ""
// when no guess is safe: a case or separator slip, one or two typing
// mistakes (one below six characters), a unique candidate that the word
// begins or ends, or one it shortens part by part ("timeout_secs"). A tie,
// or anything further away, gives nothing, because a wrong guess costs
// more than none. It is the Python library's taskspec._suggest.suggest for
// field names (which have no aliases), and tests/contract/suggestions.json
// holds both to the same answers.
func Guess(word string, candidates []string) string {
	norm := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), "-", "_"), " ", "_")
	if norm == "" {
		return ""
	}
	choice := ""
	for _, c := range candidates {
		if c != "" && strings.ToLower(c) == norm {
			choice = c
		}
	}
	if alias, ok := aliases[norm]; ok && choice == "" {
		for _, c := range candidates {
			if strings.ToLower(c) == alias {
				choice = c
			}
		}
	}
	if choice == "" {
		limit := 2
		if len([]rune(norm)) < 6 {
			limit = 1
		}
		best, found := limit+1, []string(nil)
		for _, c := range candidates {
			if c == "" || abs(len([]rune(c))-len([]rune(norm))) > limit {
				continue
			}
			switch d := distance(norm, strings.ToLower(c)); {
			case d < best:
				best, found = d, []string{c}
			case d == best:
				found = append(found, c)
			}
		}
		if best <= limit && len(found) == 1 {
			choice = found[0]
		}
	}
	if choice == "" && len([]rune(norm)) >= 2 {
		var found []string
		for _, c := range candidates {
			l := strings.ToLower(c)
			if c != "" && (strings.HasPrefix(l, norm+"_") || strings.HasSuffix(l, "_"+norm) ||
				(len([]rune(norm)) >= 4 && strings.HasPrefix(l, norm))) {
				found = append(found, c)
			}
		}
		if len(found) == 1 {
			choice = found[0]
		}
	}
	if choice == "" {
		var found []string
		for _, c := range candidates {
			if abbreviates(norm, strings.ToLower(c)) {
				found = append(found, c)
			}
		}
		if len(found) == 1 {
			choice = found[0]
		}
	}
	if choice == word {
		return ""
	}
	return choice
}

// abbreviates reports whether word shortens each "_" part of name
// ("timeout_secs" for "timeout_seconds"): the two have as many parts, two
// or more, and each part of word keeps the first letter of its part of
// name and some of the others, in order.
func abbreviates(word, name string) bool {
	parts, names := strings.Split(word, "_"), strings.Split(name, "_")
	if len(parts) != len(names) || len(parts) < 2 {
		return false
	}
	for i, p := range parts {
		n := []rune(names[i])
		r := []rune(p)
		if len(r) == 0 || len(n) == 0 || r[0] != n[0] {
			return false
		}
		j := 0
		for _, c := range r {
			for j < len(n) && n[j] != c {
				j++
			}
			if j == len(n) {
				return false
			}
			j++
		}
	}
	return true
}

// aliases are the other names people give enum values, as the
// Python library's taskspec._suggest.ALIASES lists them: a suggestion is
// made for one only when its value is a candidate.
var aliases = map[string]string{
	"golang": "go", "py": "python", "py3": "python", "python3": "python", "cpython": "python",
	"ts": "typescript", "tsx": "typescript",
	"moderate": "medium", "intermediate": "medium", "normal": "medium",
	"simple": "easy", "trivial": "easy", "difficult": "hard",
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the optimal-string-alignment edit distance: insertions,
// deletions, substitutions and swaps of adjacent characters each count one,
// as a person counts typing mistakes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if a == b {
		return 0
	}
	if len(ra) == 0 || len(rb) == 0 {
		return len(ra) + len(rb)
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	row := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		row[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			best := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				best = min(best, prev2[j-2]+1)
			}
			row[j] = best
		}
		prev2, prev, row = prev, row, prev2
	}
	return prev[len(rb)]
}
