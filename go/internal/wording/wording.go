// Package wording owns the words that problem messages share, whichever
// reader wrote them: how a value is quoted (Quote) or shown unquoted (Clip)
// in a message, cut past 80 characters with its length after; how a float
// is written (Float, as Python's repr writes it); how a field path grows
// by a name (Path); and the field a misspelt name most likely means
// (Guess). The Python library words its messages with the same rules, so
// that the two libraries' messages are the same text.
//
// It is a leaf: the public package, the JSON reader (internal/jsonread)
// and the generated code all word their messages through it, and it
// imports nothing of the module.
package wording

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// QuoteChars is the most characters of a value that a message quotes: a
// value can be megabytes long, and a message quoting all of it buries the
// problem. The Python library cuts at the same length, the same way, so
// the messages stay the same text.
const QuoteChars = 80

// Clip is text for a message, cut past QuoteChars characters with its
// length after.
func Clip(text string) string {
	n := utf8.RuneCountInString(text)
	if n <= QuoteChars {
		return text
	}
	return cutRunes(text, QuoteChars) + "... (" + strconv.Itoa(n) + " characters)"
}

// Quote is text quoted as %q quotes it, cut like Clip (the length outside).
func Quote(text string) string {
	if n := utf8.RuneCountInString(text); n > QuoteChars {
		return strconv.Quote(cutRunes(text, QuoteChars)) + fmt.Sprintf("... (%d characters)", n)
	}
	return strconv.Quote(text)
}

// cutRunes is s's first n characters.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// Path is the field path of name inside path ("" is the top).
func Path(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Float writes f as Python's repr does: the shortest digits that read
// back, in positional notation for exponents -4 to 15 and scientific
// (two exponent digits at least) otherwise.
func Float(f float64) string {
	switch {
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp := e, 0
	if i := bytes.IndexByte([]byte(e), 'e'); i >= 0 {
		mant = e[:i]
		exp, _ = strconv.Atoi(e[i+1:])
	}
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		return mant + "e" + sign + es
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !bytes.ContainsAny([]byte(s), ".") {
		s += ".0"
	}
	return s
}
