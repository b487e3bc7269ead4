package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// What libyaml reads after a flow collection that is a whole document.
//
// libyaml's scanner notes where a key may start, and, while a noted key
// may still turn out to be one (a ':' after it would make it a key), it
// reads tokens ahead before its parser takes the key's first token. A
// document that is a flow collection starting a line ("{...}" or
// "&a [...]") is such a possible key, so before the parser has read the
// document, the scanner has read the text after it: the tokens that start
// on its line, within 1024 characters of it, up to the first token that
// rules the key out, and then the first token past those.
//
// yaml.v3 reads ahead the same way, but some text it reads and libyaml
// cannot scan (a misread: see misread). Where a second document follows
// on the collection's last line ("{}{v, a:]"), the Python library, which
// reads with libyaml, reports the misread there, not the second document,
// and so must this package. yaml.v3 cannot be asked where its scanner got
// to, and the text there need not be a document of its own, so it is
// scanned here, token by token, as libyaml scans it, for the misreads
// alone: any other error there is one yaml.v3 meets too.

// flowRootKey returns the offset in rest of the ':' that makes a flow
// collection a key, or -1. rest is the text after the collection on the
// line it ends on, from its first token. A ':' and a blank outside []
// and {} makes the collection a key (of a block mapping the parser cannot
// place), where a ',' (an entry), a ']' or '}', a block scalar or a
// comment first rules that out. Inside [] and {} after it, ':' and ','
// are theirs.
func flowRootKey(rest []byte) int {
	level := 0
	for i := 0; i < len(rest); {
		c := rest[i]
		blankAfter := i+1 == len(rest) || isBlank(rest[i+1])
		switch {
		case isBlank(c):
			i++
		case c == '#':
			return -1 // a comment, to the end of the line
		case c == '"' || c == '\'':
			if i = closeQuote(rest, i); i < 0 {
				return -1 // closed on a later line
			}
		case c == '[' || c == '{':
			level++
			i++
		case level > 0 && (c == ']' || c == '}'):
			level--
			i++
		case level > 0 && (c == ',' || c == '?' || c == ':'):
			i++
		case level == 0 && c == ':' && blankAfter:
			return i
		case level == 0 && (c == ',' || c == ']' || c == '}' || c == '|' || c == '>' ||
			((c == '?' || c == '-') && blankAfter)):
			return -1
		case c == '&' || c == '*':
			// An anchor or alias name ends at the first character that
			// cannot be in it ("&a: 1", the anchor "a", then ':').
			for i++; i < len(rest) && isAnchorChar(rest[i]); i++ {
			}
		case c == '!':
			for i++; i < len(rest) && !isBlank(rest[i]) && (level == 0 || !isFlowIndicator(rest[i])); i++ {
			}
		default: // a plain scalar: in [] or {}, ended by their indicators too
			for i < len(rest) {
				if (rest[i] == ':' && (i+1 == len(rest) || isBlank(rest[i+1]) || (level > 0 && isFlowIndicator(rest[i+1])))) ||
					(level > 0 && isFlowIndicator(rest[i])) || (rest[i] == '#' && isBlank(rest[i-1])) {
					break
				}
				i++
			}
		}
	}
	return -1
}

// keyAllowedAt reports whether libyaml may start a key after before, the
// text on a line before a node: only blanks; not a "---" marker, after
// which no key may start on its line.
func keyAllowedAt(before []byte) bool {
	return len(bytes.Trim(before, " \t")) == 0
}

// lookahead returns the first error libyaml's scanner meets in the text
// from offset at, the first token after a flow collection that is a whole
// document, or nil: a misread, as its *StrictError, or another failure to
// scan, in libyaml's words. keyAt is the offset of the collection's first
// token when it is a possible key, which makes the scanner read on (see
// above), or -1, when only the token at offset at is read. keyAllowed is
// libyaml's leave to start a key at offset at (see scanToken): none after
// a flow collection, which ends a key, and leave at a line start.
func (w *walker) lookahead(keyAt, at int, keyAllowed bool) error {
	data := w.data
	lines := w.lineStarts()
	lineOf := func(i int) int { return sort.SearchInts(lines, i+1) }
	keyLine, chars, counted := 0, 0, keyAt
	if keyAt >= 0 {
		keyLine = lineOf(keyAt)
	}
	level := 0
	for i := at; i < len(data); {
		last := keyAt < 0
		if !last {
			chars += utf8.RuneCount(data[counted:i])
			counted = i
			last = lineOf(i) != keyLine || chars > 1024 // the key is forgotten: this token is the last
		}
		next, err := w.scanToken(i, &level, keyAllowed)
		if err != nil {
			return err
		}
		if next < 0 || last {
			return nil
		}
		if keyAt >= 0 && (data[i] == '"' || data[i] == '\'') && lineOf(next-1) != keyLine {
			return nil // a quoted scalar that ends on a later line leaves the key stale
		}
		// Outside [] and {}, a key may start after a line break, which a
		// plain scalar may hold too.
		plain := strings.IndexByte("[]{},\"'&*!", data[i]) < 0 && (strings.IndexByte("?:-", data[i]) < 0 || next > i+1)
		if keyAt >= 0 && plain && level == 0 {
			// libyaml's plain scanner takes the blanks and line breaks after
			// the scalar, looking for more of it: past a line break, the key
			// is stale ("{}p", a line break, then "#c").
			if lineOf(pastBlanksAndBreaks(data, next)) != keyLine {
				return nil
			}
		}
		spans := plain && next > i && lineOf(next-1) != lineOf(i)
		i = pastSeparation(data, next)
		if level == 0 {
			if tab := w.indentTab(next, i); tab >= 0 {
				line, column := w.lineColumn(tab)
				return &StrictError{Line: line, Column: column, Reason: tabIndentReason}
			}
		}
		keyAllowed = level == 0 && (spans || lineOf(i) != lineOf(next))
	}
	return nil
}

// scanToken scans the token at offset i as libyaml does, level deep in []
// and {}, and returns the offset past it, or -1 when it rules out the key
// that made the scanner read ahead (a ',', ']' or '}' outside [] and {}, a
// block scalar, or a ':' that makes it a key), or the error scanning it.
// keyAllowed is libyaml's leave to start a key there: without it, '?' and
// '-' outside [] and {} are errors; with it, they start a block
// collection, as '%' in the first column starts a directive, which the
// parser then refuses.
func (w *walker) scanToken(i int, level *int, keyAllowed bool) (int, error) {
	data := w.data
	c := data[i]
	blankz := func(j int) bool { return blankzAt(data, j) }
	switch {
	case c == '[' || c == '{':
		*level++
		return i + 1, nil
	case (c == ']' || c == '}' || c == ',') && *level == 0:
		return -1, nil
	case c == ']' || c == '}':
		*level--
		return i + 1, nil
	case c == ',' || ((c == '?' || c == ':') && *level > 0) || (c == '-' && *level > 0 && blankz(i+1)):
		return i + 1, nil // in [] and {}, its parser reports what is out of place
	case (c == ':' || keyAllowed && (c == '?' || c == '-')) && blankz(i+1), keyAllowed && c == '%' && w.columnZero(i):
		return -1, nil
	case c == '?' && blankz(i+1):
		return 0, w.scanError(i, "mapping keys are not allowed in this context")
	case c == '-' && blankz(i+1):
		return 0, w.scanError(i, "block sequence entries are not allowed in this context")
	case c == '"':
		end, err := w.scanDoubleQuoted(i)
		var strict *StrictError
		switch {
		case err == nil:
			err = w.markerInQuotes(i, end)
		case !errors.As(err, &strict): // not closed: a marker on the way is met first
			if marker := w.markerInQuotes(i, len(data)); marker != nil {
				err = marker
			}
		}
		return end, err
	case c == '\'':
		if end := closeQuote(data, i); end >= 0 {
			return end, w.markerInQuotes(i, end)
		}
		if err := w.markerInQuotes(i, len(data)); err != nil {
			return 0, err
		}
		return 0, w.scanError(len(data), "while scanning a quoted scalar, found unexpected end of stream")
	case c == '&' || c == '*':
		j := i + 1
		for j < len(data) && isAnchorChar(data[j]) {
			j++
		}
		if j == i+1 || !(blankz(j) || strings.IndexByte("?:,]}%@`", data[j]) >= 0) {
			what := map[byte]string{'&': "an anchor", '*': "an alias"}[c]
			return 0, w.scanError(j, "while scanning "+what+", did not find expected alphabetic or numeric character")
		}
		return j, nil
	case c == '!':
		return w.scanTag(i, *level > 0)
	case (c == '|' || c == '>') && *level == 0:
		// A block scalar, which rules the key out, once it is scanned.
		return -1, w.blockScalarError(i)
	case strings.IndexByte("|>%@`", c) >= 0:
		return 0, w.scanError(i, "while scanning for the next token, found character that cannot start any token")
	case *level == 0:
		return blockPlainEnd(data, i), nil
	}
	return w.scanFlowPlain(i)
}

// blockScalarError returns what libyaml's scanner fails on in the block
// scalar whose indicator is at offset i, outside any block collection (a
// document's first token), or nil. Its header is a chomping and an
// indentation indicator, in either order, then a comment or a line break.
// Its indentation is spaces: the given number, or, with none, as many as
// the first line with text has, and a tab among them is refused.
func (w *walker) blockScalarError(i int) error {
	data := w.data
	j, chomp, indent := i+1, false, 0
	for range 2 {
		switch {
		case j >= len(data):
		case (data[j] == '+' || data[j] == '-') && !chomp:
			chomp = true
			j++
		case data[j] == '0' && indent == 0:
			return w.scanError(j, "while scanning a block scalar, found an indentation indicator equal to 0")
		case data[j] >= '1' && data[j] <= '9' && indent == 0:
			indent = int(data[j] - '0')
			j++
		}
	}
	for j < len(data) && isBlank(data[j]) {
		j++
	}
	if j < len(data) && data[j] == '#' {
		for j < len(data) && lineBreakAt(data, j) == 0 {
			j++
		}
	}
	if j < len(data) && lineBreakAt(data, j) == 0 {
		return w.scanError(j, "while scanning a block scalar, did not find expected comment or line break")
	}
	found := indent > 0 // whether the indentation is known
	for most := 0; j < len(data); {
		j += lineBreakAt(data, j)
		column := 0
		for j < len(data) && data[j] == ' ' && (!found || column < indent) {
			j++
			column++
		}
		most = max(most, column)
		if j < len(data) && data[j] == '\t' && (!found || column < indent) {
			line, col := w.lineColumn(j)
			return &StrictError{Line: line, Column: col, Reason: tabIndentReason}
		}
		if j == len(data) {
			return nil
		}
		if lineBreakAt(data, j) > 0 {
			continue // an empty line
		}
		if !found {
			found, indent = true, max(most, 1)
		}
		if column < indent {
			return nil // the scalar has ended
		}
		for j < len(data) && lineBreakAt(data, j) == 0 {
			j++ // a line of text
		}
	}
	return nil
}

// markerInQuotes returns libyaml's error on a document marker that starts
// a line inside the quoted scalar from offset start to offset end, or nil.
func (w *walker) markerInQuotes(start, end int) error {
	for k := start + 1; k < end; k++ {
		if documentMarkerAt(w.data, k) {
			return w.scanError(k, "while scanning a quoted scalar, found unexpected document indicator")
		}
	}
	return nil
}

// scanDoubleQuoted returns the offset past the double-quoted scalar at
// offset i, or the misread of an escaped apostrophe in it, or libyaml's
// error when it is not closed. (An escape both readers refuse is left to
// yaml.v3.)
func (w *walker) scanDoubleQuoted(i int) (int, error) {
	data := w.data
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '"':
			return j + 1, nil
		case '\\':
			if j+1 < len(data) && data[j+1] == '\'' {
				line, column := w.lineColumn(j)
				return 0, &StrictError{Line: line, Column: column,
					Reason: badEscapeReason}
			}
			j++
		}
	}
	return 0, w.scanError(len(data), "while scanning a quoted scalar, found unexpected end of stream")
}

// scanError is libyaml's error at offset at, with yaml.v3's form: what
// libyaml fails on in the text it reads ahead, yaml.v3 need not read.
func (w *walker) scanError(at int, problem string) error {
	line, _ := w.lineColumn(min(at, len(w.data)))
	return fmt.Errorf("yaml: line %d: %s", line, problem)
}

// scanTag returns the offset past the tag at offset i, or the misread of
// a tag libyaml ends early (see tagSpan), or libyaml's error on it.
func (w *walker) scanTag(i int, inFlow bool) (int, error) {
	data := w.data
	if i+1 < len(data) && data[i+1] == '<' {
		end := bytes.IndexByte(data[i:], '>')
		if end < 0 {
			return 0, w.scanError(len(data), "while scanning a tag, did not find the expected '>'")
		}
		return i + end + 1, nil
	}
	_, end, noSuffix, _ := tagSpan(data, i)
	for j := i; j < end; j++ {
		if data[j] == '%' && (j+2 >= end || !isHex(data[j+1]) || !isHex(data[j+2])) {
			return 0, w.scanError(j, "while parsing a tag, did not find URI escaped octet")
		}
	}
	blankz := end >= len(data) || isBlank(data[end]) || lineBreakAt(data, end) > 0
	if noSuffix || !(blankz || (inFlow && data[end] == ',')) {
		reason := tagSyntaxError
		if noSuffix {
			reason = tagNoSuffixError
		}
		line, column := w.lineColumn(end)
		return 0, &StrictError{Line: line, Column: column, Reason: reason}
	}
	return end, nil
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// blockPlainEnd returns the offset past the plain scalar at offset i
// outside [] and {}, where libyaml ends it: at ':' and a blank, at a
// comment, or before a document marker. With no block around it, its
// later lines may start anywhere.
func blockPlainEnd(data []byte, i int) int {
	end := i
	for i < len(data) {
		if data[i] == '#' || documentMarkerAt(data, i) {
			return end
		}
		for i < len(data) && !isBlank(data[i]) && lineBreakAt(data, i) == 0 {
			if data[i] == ':' && (i+1 == len(data) || isBlank(data[i+1]) || lineBreakAt(data, i+1) > 0) {
				return end
			}
			i++
			end = i
		}
		for i < len(data) && (isBlank(data[i]) || lineBreakAt(data, i) > 0) {
			i += max(1, lineBreakAt(data, i))
		}
	}
	return end
}

// scanFlowPlain returns the offset past the plain scalar at offset i
// inside [] or {}, or its misread: a ':' followed by one of ",?[]{}",
// which libyaml fails on and yaml.v3 reads as the end of the scalar.
func (w *walker) scanFlowPlain(i int) (int, error) {
	data := w.data
	start, end := i, i
	for i < len(data) {
		if data[i] == '#' || documentMarkerAt(data, i) {
			return end, nil
		}
		for i < len(data) && !isBlank(data[i]) && lineBreakAt(data, i) == 0 {
			if data[i] == ':' && i+1 < len(data) && strings.IndexByte(",?[]{}", data[i+1]) >= 0 {
				line, column := w.lineColumn(start)
				return 0, &StrictError{Line: line, Column: column, Reason: flowColonReason(folded(data[start : i+1]))}
			}
			if (data[i] == ':' && (i+1 == len(data) || isBlank(data[i+1]) || lineBreakAt(data, i+1) > 0)) ||
				isFlowIndicator(data[i]) {
				return end, nil
			}
			i++
			end = i
		}
		for i < len(data) && (isBlank(data[i]) || lineBreakAt(data, i) > 0) {
			i += max(1, lineBreakAt(data, i))
		}
	}
	return end, nil
}

// documentMarkerAt reports whether a "---" or "..." marker starts a line
// at offset i.
func documentMarkerAt(data []byte, i int) bool {
	return (i == 0 || data[i-1] == '\n' || data[i-1] == '\r') && i+3 <= len(data) &&
		(string(data[i:i+3]) == "---" || string(data[i:i+3]) == "...") &&
		(i+3 == len(data) || isBlank(data[i+3]) || lineBreakAt(data, i+3) > 0)
}

// folded is the value of a plain scalar written over the lines of text,
// as YAML folds them: each line trimmed of its blanks, one line break
// read as a space, and more as one newline fewer than they are.
func folded(text []byte) string {
	var out strings.Builder
	breaks, first := 0, true
	for len(text) > 0 || first {
		line := text
		next := len(text)
		for j := range text {
			if n := lineBreakAt(text, j); n > 0 && (n == 1 || text[j] == 0xC2) { // not LS or PS
				line, next = text[:j], j+n
				if text[j] == '\r' && j+1 < len(text) && text[j+1] == '\n' {
					next++
				}
				break
			}
		}
		if first {
			out.Write(bytes.TrimRight(line, " \t"))
			first = false
		} else if t := bytes.Trim(line, " \t"); len(t) == 0 {
			breaks++
		} else {
			if breaks > 0 {
				out.WriteString(strings.Repeat("\n", breaks))
			} else {
				out.WriteByte(' ')
			}
			out.Write(t)
			breaks = 0
		}
		if next == len(text) {
			break
		}
		text = text[next:]
	}
	return out.String()
}

// flowColonReason is the refusal of a plain scalar ending in ':' inside []
// or {}, quoting its value.
func flowColonReason(value string) string {
	return fmt.Sprintf("the plain scalar %q ends in ':' inside [] or {}: YAML readers disagree on it; quote the string", value)
}

// indentTab returns the offset of the first tab in the separation from
// offset from to offset to that starts a line (after any spaces), or -1. Outside [] and {}, libyaml's
// scanner may start a key after a line break, and then does not skip a tab
// as a blank: it fails on it as indentation ("[a]", a line break, "\t#c").
func (w *walker) indentTab(from, to int) int {
	data := w.data
	for k := from; k < to; {
		n := lineBreakAt(data, k)
		if n == 0 {
			k++
			continue
		}
		k += n
		for k < to && data[k] == ' ' {
			k++
		}
		if k < to && data[k] == '\t' {
			return k
		}
	}
	return -1
}

// pastBlanksAndBreaks returns the offset past the blanks and line breaks
// at offset i: what libyaml's plain scanner reads after a plain scalar,
// looking for more of it.
func pastBlanksAndBreaks(data []byte, i int) int {
	for i < len(data) && (isBlank(data[i]) || lineBreakAt(data, i) > 0) {
		i += max(1, lineBreakAt(data, i))
	}
	return i
}

// columnZero reports whether offset i starts a line.
func (w *walker) columnZero(i int) bool {
	lines := w.lineStarts()
	at := sort.SearchInts(lines, i)
	return at < len(lines) && lines[at] == i
}

// flowMisread returns the first misread inside [] or {} in the text from
// offset from to offset limit, or nil: a plain scalar ending in ':' before
// one of ",?[]{}" (see scanFlowPlain), which libyaml fails on, or, with
// tags, a tag libyaml ends at ',' (see tagThenComma). yaml.v3 reads both otherwise, so where it
// then fails further on it has no tree to find them in (see misreads); the
// Python library refuses the first of them. The text is read token by
// token as far as it tells where [] and {} are: quoted scalars, comments,
// plain scalars outside them (whose brackets are text) and the lines of
// block scalars are passed over.
func (w *walker) flowMisread(from, limit int, tags bool) *StrictError {
	data := w.data
	depth, start := 0, true // start: a token may start here
	lineIndent := 0         // the indentation of the line being read
	for from+lineIndent < len(data) && data[from+lineIndent] == ' ' {
		lineIndent++
	}
	for i := from; i < len(data) && i < limit; {
		c := data[i]
		if n := lineBreakAt(data, i); n > 0 {
			i += n
			start, lineIndent = true, 0
			for i < len(data) && data[i] == ' ' {
				i++
				lineIndent++
			}
			continue
		}
		switch {
		case isBlank(c) || c == ',' && depth > 0:
			i++
			start = true
		case c == '#' && start:
			for i < len(data) && lineBreakAt(data, i) == 0 {
				i++
			}
		case (c == '[' || c == '{') && (start || depth > 0):
			depth++
			i++
			start = true
		case (c == ']' || c == '}') && depth > 0:
			depth--
			i++
			start = depth > 0
		case !start:
			i++
		case c == '\'' || c == '"':
			i, start = quotedEnd(data, i, c == '"'), false
		case c == '!' && depth > 0:
			begin, end, _, ok := tagSpan(data, i)
			if !ok {
				return nil // a verbatim tag: the text is read no further
			}
			if tags && end < len(data) && data[end] == ',' {
				line, column := w.lineColumn(begin)
				return &StrictError{Line: line, Column: column, Reason: tagThenComma(string(data[begin:end]))}
			}
			i, start = end, false
		case c == '!' || c == '&' || c == '*':
			for i < len(data) && !isBlank(data[i]) && lineBreakAt(data, i) == 0 && (depth == 0 || !isFlowIndicator(data[i])) {
				i++
			}
			start = false
		case (c == '-' || c == '?' || c == ':') && (i+1 == len(data) || isBlank(data[i+1]) || lineBreakAt(data, i+1) > 0 ||
			depth > 0 && c != '-' && isFlowIndicator(data[i+1])):
			if c == ':' && depth == 0 && i == from+lineIndent {
				// A value with no key starts the line: libyaml's parser
				// fails there, before what follows is read.
				return nil
			}
			i++
		case depth > 0:
			end, err := w.scanFlowPlain(i)
			if err != nil {
				strict, _ := err.(*StrictError)
				return strict
			}
			i, start = max(end, i+1), false
		case c == '|' || c == '>':
			// A block scalar: its lines are those indented more than the
			// line of its header.
			for i < len(data) && lineBreakAt(data, i) == 0 {
				i++
			}
			for i < len(data) {
				next, indent := i+lineBreakAt(data, i), 0
				for next+indent < len(data) && data[next+indent] == ' ' {
					indent++
				}
				if next+indent < len(data) && lineBreakAt(data, next+indent) == 0 && indent <= lineIndent {
					break
				}
				i = next + indent
				for i < len(data) && lineBreakAt(data, i) == 0 {
					i++
				}
			}
		default:
			// A plain scalar outside [] and {}: to the end of its line, or
			// to ": " or " #".
			for i < len(data) && lineBreakAt(data, i) == 0 {
				if data[i] == ':' && (i+1 == len(data) || isBlank(data[i+1]) || lineBreakAt(data, i+1) > 0) {
					break
				}
				if data[i] == '#' && isBlank(data[i-1]) {
					break
				}
				i++
			}
			start = false
		}
	}
	return nil
}
