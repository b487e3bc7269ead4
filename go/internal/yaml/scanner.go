package yaml

import "bytes"

// The scanner turns the text into tokens, following libyaml's scanner.c
// routine by routine: each function's doc comment names the libyaml routine
// it is, so that a difference from libyaml, or from yaml.v3's port of it
// (scannerc.go), can be found by name.

type tokenKind int

const (
	tokNone tokenKind = iota
	tokStreamStart
	tokStreamEnd
	tokVersionDirective
	tokTagDirective
	tokDocumentStart
	tokDocumentEnd
	tokBlockSequenceStart
	tokBlockMappingStart
	tokBlockEnd
	tokFlowSequenceStart
	tokFlowSequenceEnd
	tokFlowMappingStart
	tokFlowMappingEnd
	tokBlockEntry
	tokFlowEntry
	tokKey
	tokValue
	tokAlias
	tokAnchor
	tokTag
	tokScalar
)

// A token is yaml_token_t: Value holds a scalar's text, an anchor's or an
// alias's name, a tag's suffix or a %TAG prefix; Handle a tag's handle.
type token struct {
	kind         tokenKind
	start, end   Mark
	value        string
	handle       string
	style        Style
	major, minor int
	// difference is where yaml.v3 reads the token otherwise, with
	// Options.YAMLv3: refused when its event is parsed.
	difference *Error
}

// A simpleKey is yaml_simple_key_t: a place where a KEY token may have to
// be inserted, if a ':' follows on the same line.
type simpleKey struct {
	possible, required bool
	tokenNumber        int
	mark               Mark
}

type scanner struct {
	data []byte
	p    int  // byte offset of the next character
	mark Mark // position of the next character

	tokens         []token // the queue; head is tokens[head]
	head           int
	tokensParsed   int
	tokenAvailable bool

	streamStartProduced bool
	streamEndProduced   bool

	indent  int
	indents []int

	simpleKeyAllowed bool
	simpleKeys       []simpleKey
	flowLevel        int

	err *Error
	// yamlv3 makes the scanner refuse where yaml.v3 reads otherwise
	// (Options.YAMLv3), and difference is the first such place in the
	// token being scanned.
	yamlv3     bool
	difference *Error
}

// at is the byte k bytes past the next character, or 0 past the end (the
// NUL libyaml's reader appends).
func (s *scanner) at(k int) byte {
	if s.p+k < len(s.data) {
		return s.data[s.p+k]
	}
	return 0
}

func (s *scanner) check(c byte) bool { return s.at(0) == c }
func (s *scanner) isZ() bool         { return s.p >= len(s.data) }

func (s *scanner) isBlankAt(k int) bool { c := s.at(k); return c == ' ' || c == '\t' }
func (s *scanner) isBreakAt(k int) bool { return isBreakAt(s.data, s.p+k) }
func (s *scanner) isBreakZAt(k int) bool {
	return s.p+k >= len(s.data) || s.isBreakAt(k)
}
func (s *scanner) isBlankZAt(k int) bool { return s.isBlankAt(k) || s.isBreakZAt(k) }

func isAlpha(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f'
}

func asHex(c byte) int {
	switch {
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c - '0')
}

// skip is SKIP: past one character on the line.
func (s *scanner) skip() {
	s.p += width(s.data[s.p])
	s.mark.Index++
	s.mark.Column++
	s.mark.Offset = s.p
}

// skipLine is SKIP_LINE: past one line break, CR LF counting two.
func (s *scanner) skipLine() {
	if s.check('\r') && s.at(1) == '\n' {
		s.p += 2
		s.mark.Index += 2
	} else if s.isBreakAt(0) {
		s.p += width(s.data[s.p])
		s.mark.Index++
	} else {
		return
	}
	s.mark.Column = 0
	s.mark.Line++
	s.mark.Offset = s.p
}

// read is READ: the next character appended to b.
func (s *scanner) read(b []byte) []byte {
	w := width(s.data[s.p])
	b = append(b, s.data[s.p:s.p+w]...)
	s.skip()
	return b
}

// readLine is READ_LINE: a line break appended to b, CR, LF, CR LF and NEL
// as LF, LS and PS as themselves.
func (s *scanner) readLine(b []byte) []byte {
	switch {
	case s.check('\r') && s.at(1) == '\n':
		b = append(b, '\n')
	case s.check('\r') || s.check('\n') || s.check(0xC2):
		b = append(b, '\n')
	default:
		b = append(b, s.data[s.p:s.p+3]...)
	}
	s.skipLine()
	return b
}

// scannerError is yaml_parser_set_scanner_error.
func (s *scanner) scannerError(context string, contextMark Mark, problem string) bool {
	s.err = &Error{Kind: ScannerError, Context: context, ContextMark: contextMark, Problem: problem, ProblemMark: s.mark}
	return false
}

func (s *scanner) enqueue(t token) { s.tokens = append(s.tokens, t) }

// insert is QUEUE_INSERT: t placed n tokens past the head.
func (s *scanner) insert(n int, t token) {
	i := s.head + n
	s.tokens = append(s.tokens, token{})
	copy(s.tokens[i+1:], s.tokens[i:])
	s.tokens[i] = t
}

// peek is PEEK_TOKEN: the next token, fetching more as needed, or nil on
// error.
func (s *scanner) peek() *token {
	if !s.tokenAvailable && !s.fetchMoreTokens() {
		return nil
	}
	return &s.tokens[s.head]
}

// skipToken is SKIP_TOKEN.
func (s *scanner) skipToken() {
	s.tokenAvailable = false
	s.tokensParsed++
	s.streamEndProduced = s.tokens[s.head].kind == tokStreamEnd
	s.head++
	if s.head == len(s.tokens) {
		s.tokens = s.tokens[:0]
		s.head = 0
	}
}

// fetchMoreTokens is yaml_parser_fetch_more_tokens: tokens are fetched
// until the head of the queue cannot become a KEY's place.
func (s *scanner) fetchMoreTokens() bool {
	if s.err != nil {
		return false
	}
	for {
		need := s.head == len(s.tokens)
		if !need {
			if !s.staleSimpleKeys() {
				return false
			}
			for i := range s.simpleKeys {
				k := &s.simpleKeys[i]
				if k.possible && k.tokenNumber == s.tokensParsed {
					need = true
					break
				}
			}
		}
		if !need {
			break
		}
		if !s.fetchNextToken() {
			return false
		}
	}
	s.tokenAvailable = true
	return true
}

// fetchNextToken is yaml_parser_fetch_next_token, the dispatcher.
func (s *scanner) fetchNextToken() bool {
	if !s.streamStartProduced {
		return s.fetchStreamStart()
	}
	if !s.scanToNextToken() || !s.staleSimpleKeys() {
		return false
	}
	s.unrollIndent(s.mark.Column)
	if s.isZ() {
		return s.fetchStreamEnd()
	}
	c := s.at(0)
	if s.mark.Column == 0 {
		if c == '%' {
			return s.fetchDirective()
		}
		if c == '-' && s.at(1) == '-' && s.at(2) == '-' && s.isBlankZAt(3) {
			return s.fetchDocumentIndicator(tokDocumentStart)
		}
		if c == '.' && s.at(1) == '.' && s.at(2) == '.' && s.isBlankZAt(3) {
			return s.fetchDocumentIndicator(tokDocumentEnd)
		}
	}
	switch c {
	case '[':
		return s.fetchFlowCollectionStart(tokFlowSequenceStart)
	case '{':
		return s.fetchFlowCollectionStart(tokFlowMappingStart)
	case ']':
		return s.fetchFlowCollectionEnd(tokFlowSequenceEnd)
	case '}':
		return s.fetchFlowCollectionEnd(tokFlowMappingEnd)
	case ',':
		return s.fetchFlowEntry()
	}
	if c == '-' && s.isBlankZAt(1) {
		return s.fetchBlockEntry()
	}
	if c == '?' && (s.flowLevel > 0 || s.isBlankZAt(1)) {
		return s.fetchKey()
	}
	if c == ':' && (s.flowLevel > 0 || s.isBlankZAt(1)) {
		return s.fetchValue()
	}
	switch c {
	case '*':
		return s.fetchAnchor(tokAlias)
	case '&':
		return s.fetchAnchor(tokAnchor)
	case '!':
		return s.fetchTag()
	case '|', '>':
		if s.flowLevel == 0 {
			return s.fetchBlockScalar(c == '|')
		}
	case '\'', '"':
		return s.fetchFlowScalar(c == '\'')
	}
	// A plain scalar starts with any non-blank character but the
	// indicators; '-' may start one when a non-blank follows, and, in the
	// block context, '?' and ':' too.
	plainStart := true
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		plainStart = false
	}
	if s.isBlankZAt(0) {
		plainStart = false
	}
	if plainStart || (c == '-' && !s.isBlankAt(1)) ||
		(s.flowLevel == 0 && (c == '?' || c == ':') && !s.isBlankZAt(1)) {
		return s.fetchPlainScalar()
	}
	return s.scannerError("while scanning for the next token", s.mark,
		"found character that cannot start any token")
}

// staleSimpleKeys is yaml_parser_stale_simple_keys: a possible simple key
// is dropped once the scanner has left its line or gone 1024 characters
// past it, and it is an error if the key was required.
func (s *scanner) staleSimpleKeys() bool {
	for i := range s.simpleKeys {
		k := &s.simpleKeys[i]
		if k.possible && (k.mark.Line < s.mark.Line || k.mark.Index+1024 < s.mark.Index) {
			if k.required {
				return s.scannerError("while scanning a simple key", k.mark, "could not find expected ':'")
			}
			k.possible = false
		}
	}
	return true
}

// saveSimpleKey is yaml_parser_save_simple_key.
func (s *scanner) saveSimpleKey() bool {
	required := s.flowLevel == 0 && s.indent == s.mark.Column
	if s.simpleKeyAllowed {
		k := simpleKey{possible: true, required: required,
			tokenNumber: s.tokensParsed + len(s.tokens) - s.head, mark: s.mark}
		if !s.removeSimpleKey() {
			return false
		}
		s.simpleKeys[len(s.simpleKeys)-1] = k
	}
	return true
}

// removeSimpleKey is yaml_parser_remove_simple_key.
func (s *scanner) removeSimpleKey() bool {
	k := &s.simpleKeys[len(s.simpleKeys)-1]
	if k.possible && k.required {
		return s.scannerError("while scanning a simple key", k.mark, "could not find expected ':'")
	}
	k.possible = false
	return true
}

// increaseFlowLevel is yaml_parser_increase_flow_level.
func (s *scanner) increaseFlowLevel() {
	s.simpleKeys = append(s.simpleKeys, simpleKey{})
	s.flowLevel++
}

// decreaseFlowLevel is yaml_parser_decrease_flow_level.
func (s *scanner) decreaseFlowLevel() {
	if s.flowLevel > 0 {
		s.flowLevel--
		s.simpleKeys = s.simpleKeys[:len(s.simpleKeys)-1]
	}
}

// rollIndent is yaml_parser_roll_indent: in the block context, a deeper
// column opens a collection, whose start token is appended, or inserted
// at token number n when n is not -1.
func (s *scanner) rollIndent(column, n int, kind tokenKind, mark Mark) {
	if s.flowLevel > 0 {
		return
	}
	if s.indent < column {
		s.indents = append(s.indents, s.indent)
		s.indent = column
		t := token{kind: kind, start: mark, end: mark}
		if n == -1 {
			s.enqueue(t)
		} else {
			s.insert(n-s.tokensParsed, t)
		}
	}
}

// unrollIndent is yaml_parser_unroll_indent: a BLOCK-END for each level
// deeper than column, at the current mark (where the next token starts).
//
// Difference "block-end-mark": yaml.v3 places its BLOCK-ENDs where the
// scan for the next token began (before the blanks and comments, to keep
// foot comments), so an empty value the parser places at a BLOCK-END is
// elsewhere in yaml.v3: "  ?\n" has its null value at line 2, column 1
// here and at line 1, column 4 in yaml.v3; "? \n#0" likewise.
func (s *scanner) unrollIndent(column int) {
	if s.flowLevel > 0 {
		return
	}
	for s.indent > column {
		s.enqueue(token{kind: tokBlockEnd, start: s.mark, end: s.mark})
		s.indent = s.indents[len(s.indents)-1]
		s.indents = s.indents[:len(s.indents)-1]
	}
}

// fetchStreamStart is yaml_parser_fetch_stream_start.
func (s *scanner) fetchStreamStart() bool {
	s.indent = -1
	s.simpleKeys = append(s.simpleKeys, simpleKey{})
	s.simpleKeyAllowed = true
	s.streamStartProduced = true
	s.enqueue(token{kind: tokStreamStart, start: s.mark, end: s.mark})
	return true
}

// fetchStreamEnd is yaml_parser_fetch_stream_end: the stream ends on a new
// line, so the BLOCK-ENDs and the empty scalars there are at its start.
func (s *scanner) fetchStreamEnd() bool {
	if s.mark.Column != 0 {
		s.mark.Column = 0
		s.mark.Line++
	}
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	s.enqueue(token{kind: tokStreamEnd, start: s.mark, end: s.mark})
	return true
}

// fetchDirective is yaml_parser_fetch_directive.
func (s *scanner) fetchDirective() bool {
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	t, ok := s.scanDirective()
	if !ok {
		return false
	}
	s.enqueue(t)
	return true
}

// fetchDocumentIndicator is yaml_parser_fetch_document_indicator.
func (s *scanner) fetchDocumentIndicator(kind tokenKind) bool {
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	start := s.mark
	s.skip()
	s.skip()
	s.skip()
	s.enqueue(token{kind: kind, start: start, end: s.mark})
	return true
}

// fetchFlowCollectionStart is yaml_parser_fetch_flow_collection_start.
func (s *scanner) fetchFlowCollectionStart(kind tokenKind) bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.increaseFlowLevel()
	s.simpleKeyAllowed = true
	return s.fetchIndicator(kind)
}

// fetchIndicator consumes a one-character token and appends it.
func (s *scanner) fetchIndicator(kind tokenKind) bool {
	start := s.mark
	s.skip()
	s.enqueue(token{kind: kind, start: start, end: s.mark})
	return true
}

// fetchFlowCollectionEnd is yaml_parser_fetch_flow_collection_end.
func (s *scanner) fetchFlowCollectionEnd(kind tokenKind) bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.decreaseFlowLevel()
	s.simpleKeyAllowed = false
	return s.fetchIndicator(kind)
}

// fetchFlowEntry is yaml_parser_fetch_flow_entry.
func (s *scanner) fetchFlowEntry() bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	return s.fetchIndicator(tokFlowEntry)
}

// fetchBlockEntry is yaml_parser_fetch_block_entry. A '-' in the flow
// context is left for the parser to refuse, with its context.
func (s *scanner) fetchBlockEntry() bool {
	if s.flowLevel == 0 {
		if !s.simpleKeyAllowed {
			return s.scannerError("", s.mark, "block sequence entries are not allowed in this context")
		}
		s.rollIndent(s.mark.Column, -1, tokBlockSequenceStart, s.mark)
	}
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	return s.fetchIndicator(tokBlockEntry)
}

// fetchKey is yaml_parser_fetch_key.
func (s *scanner) fetchKey() bool {
	if s.flowLevel == 0 {
		if !s.simpleKeyAllowed {
			return s.scannerError("", s.mark, "mapping keys are not allowed in this context")
		}
		s.rollIndent(s.mark.Column, -1, tokBlockMappingStart, s.mark)
	}
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = s.flowLevel == 0
	return s.fetchIndicator(tokKey)
}

// fetchValue is yaml_parser_fetch_value: a ':' after a possible simple key
// makes it a key, inserting KEY (and, in the block context, the mapping's
// start) where the key began.
func (s *scanner) fetchValue() bool {
	k := &s.simpleKeys[len(s.simpleKeys)-1]
	if k.possible {
		s.insert(k.tokenNumber-s.tokensParsed, token{kind: tokKey, start: k.mark, end: k.mark})
		s.rollIndent(k.mark.Column, k.tokenNumber, tokBlockMappingStart, k.mark)
		k.possible = false
		s.simpleKeyAllowed = false
	} else {
		if s.flowLevel == 0 {
			if !s.simpleKeyAllowed {
				return s.scannerError("", s.mark, "mapping values are not allowed in this context")
			}
			s.rollIndent(s.mark.Column, -1, tokBlockMappingStart, s.mark)
		}
		s.simpleKeyAllowed = s.flowLevel == 0
	}
	return s.fetchIndicator(tokValue)
}

// fetchAnchor is yaml_parser_fetch_anchor.
func (s *scanner) fetchAnchor(kind tokenKind) bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	t, ok := s.scanAnchor(kind)
	if ok {
		s.enqueue(t)
	}
	return ok
}

// fetchTag is yaml_parser_fetch_tag.
func (s *scanner) fetchTag() bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	t, ok := s.scanTag()
	if ok {
		s.enqueue(t)
	}
	return ok
}

// fetchBlockScalar is yaml_parser_fetch_block_scalar.
func (s *scanner) fetchBlockScalar(literal bool) bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	t, ok := s.scanBlockScalar(literal)
	if ok {
		s.enqueue(t)
	}
	return ok
}

// fetchFlowScalar is yaml_parser_fetch_flow_scalar.
func (s *scanner) fetchFlowScalar(single bool) bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	t, ok := s.scanFlowScalar(single)
	if ok {
		s.enqueue(t)
	}
	return ok
}

// fetchPlainScalar is yaml_parser_fetch_plain_scalar.
func (s *scanner) fetchPlainScalar() bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	t, ok := s.scanPlainScalar()
	if ok {
		s.enqueue(t)
	}
	return ok
}

// scanToNextToken is yaml_parser_scan_to_next_token: blanks, comments and
// line breaks skipped. A tab is skipped only in the flow context or where
// no simple key may start.
//
// Difference "bom-at-index": a byte order mark at column 0 is skipped
// here (and counts a column, as libyaml's SKIP does); yaml.v3's is_bom
// tests the start of its buffer instead of the current position, so it
// skips the next character of any line whose buffer begins with a BOM and
// reads a BOM in the middle of the text as content ("a: 1\n\uFEFFb: 2").
//
// Difference "tab-among-comments": yaml.v3 gathers comments here, and the
// gathering reads a line that a tab starts among comment lines with the
// comments, where libyaml fails on the tab ("a: 1\n# c\n\t# d\nb: 2").
//
// Difference "indicator-tab": after a block '?' or ':' (a complex key or
// value) a tab is not skipped, so libyaml fails on "?\t# c"; yaml.v3's
// comment gathering reads the tab with the comment after it.
func (s *scanner) scanToNextToken() bool {
	for {
		if s.mark.Column == 0 && s.at(0) == 0xEF && s.at(1) == 0xBB && s.at(2) == 0xBF {
			s.skip()
		}
		for s.check(' ') || ((s.flowLevel > 0 || !s.simpleKeyAllowed) && s.check('\t')) {
			s.skip()
		}
		if s.check('#') {
			for !s.isBreakZAt(0) {
				s.skip()
			}
		}
		if !s.isBreakAt(0) {
			return true
		}
		s.skipLine()
		if s.flowLevel == 0 {
			s.simpleKeyAllowed = true
		}
	}
}

// scanDirective is yaml_parser_scan_directive: %YAML or %TAG, then blanks,
// a comment and the line break.
func (s *scanner) scanDirective() (token, bool) {
	start := s.mark
	s.skip()
	name, ok := s.scanDirectiveName(start)
	if !ok {
		return token{}, false
	}
	var t token
	switch name {
	case "YAML":
		major, minor, ok := s.scanVersionDirectiveValue(start)
		if !ok {
			return token{}, false
		}
		t = token{kind: tokVersionDirective, start: start, end: s.mark, major: major, minor: minor}
	case "TAG":
		handle, prefix, ok := s.scanTagDirectiveValue(start)
		if !ok {
			return token{}, false
		}
		t = token{kind: tokTagDirective, start: start, end: s.mark, handle: handle, value: prefix}
	default:
		return token{}, s.scannerError("while scanning a directive", start, "found unknown directive name")
	}
	if !s.skipLineEnd() {
		return token{}, s.scannerError("while scanning a directive", start, "did not find expected comment or line break")
	}
	return t, true
}

// skipLineEnd eats blanks and a comment, then the line break; it reports
// false, having eaten nothing past the comment, when something else is on
// the line.
func (s *scanner) skipLineEnd() bool {
	for s.isBlankAt(0) {
		s.skip()
	}
	if s.check('#') {
		for !s.isBreakZAt(0) {
			s.skip()
		}
	}
	if !s.isBreakZAt(0) {
		return false
	}
	s.skipLine()
	return true
}

// scanDirectiveName is yaml_parser_scan_directive_name.
func (s *scanner) scanDirectiveName(start Mark) (string, bool) {
	var b []byte
	for isAlpha(s.at(0)) {
		b = s.read(b)
	}
	if len(b) == 0 {
		return "", s.scannerError("while scanning a directive", start, "could not find expected directive name")
	}
	if !s.isBlankZAt(0) {
		return "", s.scannerError("while scanning a directive", start, "found unexpected non-alphabetical character")
	}
	return string(b), true
}

// scanVersionDirectiveValue is yaml_parser_scan_version_directive_value.
func (s *scanner) scanVersionDirectiveValue(start Mark) (major, minor int, ok bool) {
	for s.isBlankAt(0) {
		s.skip()
	}
	if major, ok = s.scanVersionDirectiveNumber(start); !ok {
		return 0, 0, false
	}
	if !s.check('.') {
		return 0, 0, s.scannerError("while scanning a %YAML directive", start, "did not find expected digit or '.' character")
	}
	s.skip()
	minor, ok = s.scanVersionDirectiveNumber(start)
	return major, minor, ok
}

// scanVersionDirectiveNumber is yaml_parser_scan_version_directive_number:
// at most nine digits.
func (s *scanner) scanVersionDirectiveNumber(start Mark) (int, bool) {
	value, length := 0, 0
	for c := s.at(0); c >= '0' && c <= '9'; c = s.at(0) {
		length++
		if length > 9 {
			return 0, s.scannerError("while scanning a %YAML directive", start, "found extremely long version number")
		}
		value = value*10 + int(c-'0')
		s.skip()
	}
	if length == 0 {
		return 0, s.scannerError("while scanning a %YAML directive", start, "did not find expected version number")
	}
	return value, true
}

// scanTagDirectiveValue is yaml_parser_scan_tag_directive_value.
func (s *scanner) scanTagDirectiveValue(start Mark) (handle, prefix string, ok bool) {
	for s.isBlankAt(0) {
		s.skip()
	}
	if handle, ok = s.scanTagHandle(true, start); !ok {
		return "", "", false
	}
	if !s.isBlankAt(0) {
		return "", "", s.scannerError("while scanning a %TAG directive", start, "did not find expected whitespace")
	}
	for s.isBlankAt(0) {
		s.skip()
	}
	if prefix, ok = s.scanTagURI(true, true, "", start); !ok {
		return "", "", false
	}
	if !s.isBlankZAt(0) {
		return "", "", s.scannerError("while scanning a %TAG directive", start, "did not find expected whitespace or line break")
	}
	return handle, prefix, true
}

// scanAnchor is yaml_parser_scan_anchor: '&' or '*' and a name of
// alphanumerics, '_' and '-', ended by a blank or one of "?:,]}%@`".
func (s *scanner) scanAnchor(kind tokenKind) (token, bool) {
	start := s.mark
	s.skip()
	var b []byte
	for isAlpha(s.at(0)) {
		b = s.read(b)
	}
	end := s.mark
	ok := s.isBlankZAt(0)
	switch s.at(0) {
	case '?', ':', ',', ']', '}', '%', '@', '`':
		ok = true
	}
	if len(b) == 0 || !ok {
		context := "while scanning an alias"
		if kind == tokAnchor {
			context = "while scanning an anchor"
		}
		return token{}, s.scannerError(context, start, "did not find expected alphabetic or numeric character")
	}
	return token{kind: kind, start: start, end: end, value: string(b)}, true
}

// scanTag is yaml_parser_scan_tag: "!<uri>", "!handle!suffix", "!suffix"
// or "!". The token's handle is "" for a verbatim tag; for "!" alone the
// handle is "" and the suffix "!".
//
// In the flow context a tag ends at ',' ("[!a,b]" is a tagged empty
// scalar and "b"); yaml.v3 reads the ',' into the tag (difference
// "tag-uri-flow-chars", at scanTagURI).
//
// Difference "bang-tag": the tag "!" alone is the non-specific tag, which
// YAML makes a string ("! 5" is "5", "- !" the empty string); the node
// keeps it as its Tag. yaml.v3's node() drops it and resolves the text, so
// "! 5" is 5 and "- !" null. The trees agree but for the tag: the caller
// refuses, or reads, at Tag "!".
func (s *scanner) scanTag() (token, bool) {
	start := s.mark
	var handle, suffix string
	ok := true
	if s.at(1) == '<' {
		s.skip()
		s.skip()
		if suffix, ok = s.scanTagURI(true, false, "", start); !ok {
			return token{}, false
		}
		if !s.check('>') {
			return token{}, s.scannerError("while scanning a tag", start, "did not find the expected '>'")
		}
		s.skip()
	} else {
		if handle, ok = s.scanTagHandle(false, start); !ok {
			return token{}, false
		}
		if len(handle) > 1 && handle[0] == '!' && handle[len(handle)-1] == '!' {
			if suffix, ok = s.scanTagURI(false, false, "", start); !ok {
				return token{}, false
			}
		} else {
			if suffix, ok = s.scanTagURI(false, false, handle, start); !ok {
				return token{}, false
			}
			handle = "!"
			if suffix == "" {
				handle, suffix = "", "!"
			}
		}
	}
	if !s.isBlankZAt(0) && (s.flowLevel == 0 || !s.check(',')) {
		return token{}, s.scannerError("while scanning a tag", start, "did not find expected whitespace or line break")
	}
	t := token{kind: tokTag, start: start, end: s.mark, handle: handle, value: suffix}
	if s.yamlv3 && s.flowLevel > 0 && s.check(',') {
		// "tag-uri-flow-chars": yaml_parser_scan_tag_uri ends the tag at
		// the ','; yaml.v3's yaml_parser_scan_tag_uri reads it into the
		// tag. Refused when the node's event is parsed (ProblemMark: the
		// tag's start).
		t.difference = &Error{Kind: DifferenceError, Difference: "tag-uri-flow-chars",
			Problem: "found a tag followed by ','", ProblemMark: start}
	}
	return t, true
}

// scanTagHandle is yaml_parser_scan_tag_handle: "!", "!!" or "!name!"; in
// a tag, "!name" without the closing '!' is returned for the URI to go on.
func (s *scanner) scanTagHandle(directive bool, start Mark) (string, bool) {
	context := "while scanning a tag"
	if directive {
		context = "while scanning a tag directive"
	}
	if !s.check('!') {
		return "", s.scannerError(context, start, "did not find expected '!'")
	}
	b := s.read(nil)
	for isAlpha(s.at(0)) {
		b = s.read(b)
	}
	if s.check('!') {
		b = s.read(b)
	} else if directive && string(b) != "!" {
		return "", s.scannerError("while parsing a tag directive", start, "did not find expected '!'")
	}
	return string(b), true
}

// scanTagURI is yaml_parser_scan_tag_uri: the URI characters, with
// %-escapes decoded; head, less its '!', is the start of the URI. In a
// verbatim tag and a %TAG prefix (uriChar), ',', '[' and ']' are URI
// characters too.
//
// A %00 escape ends the URI where libyaml's C strings end it: "!a%00b"
// is the tag "!a" (difference "nul-in-tag": yaml.v3 keeps "!a\x00b").
//
// Difference "tag-uri-flow-chars": yaml.v3 3.0.4 takes ',', '[' and ']'
// in every tag URI, so "[!a,b]" and "{!a]: b}" read differently: libyaml
// ends the tag before the indicator.
func (s *scanner) scanTagURI(uriChar, directive bool, head string, start Mark) (string, bool) {
	var b []byte
	length := len(head)
	if length > 1 {
		b = append(b, head[1:]...)
	}
	for {
		c := s.at(0)
		ok := isAlpha(c)
		switch c {
		case ';', '/', '?', ':', '@', '&', '=', '+', '$', '.', '%', '!', '~', '*', '\'', '(', ')':
			ok = true
		case ',', '[', ']':
			ok = uriChar
		}
		if !ok {
			break
		}
		if c == '%' {
			var good bool
			if b, good = s.scanURIEscapes(directive, start, b); !good {
				return "", false
			}
		} else {
			b = s.read(b)
		}
		length++
	}
	if length == 0 {
		context := "while parsing a tag"
		if directive {
			context = "while parsing a %TAG directive"
		}
		return "", s.scannerError(context, start, "did not find expected tag URI")
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b), true
}

// scanURIEscapes is yaml_parser_scan_uri_escapes: %-escaped octets that
// make one UTF-8 character. Only the octets' shape is checked, as libyaml
// does, so "!%C0%80" (an overlong NUL) gives a tag that is not UTF-8:
// PyYAML fails decoding it, and the caller must refuse such a tag.
func (s *scanner) scanURIEscapes(directive bool, start Mark, b []byte) ([]byte, bool) {
	context := "while parsing a tag"
	if directive {
		context = "while parsing a %TAG directive"
	}
	w := 0
	for {
		if !(s.check('%') && isHex(s.at(1)) && isHex(s.at(2))) {
			return nil, s.scannerError(context, start, "did not find URI escaped octet")
		}
		octet := byte(asHex(s.at(1))<<4 + asHex(s.at(2)))
		if w == 0 {
			switch {
			case octet&0x80 == 0:
				w = 1
			case octet&0xE0 == 0xC0:
				w = 2
			case octet&0xF0 == 0xE0:
				w = 3
			case octet&0xF8 == 0xF0:
				w = 4
			default:
				return nil, s.scannerError(context, start, "found an incorrect leading UTF-8 octet")
			}
		} else if octet&0xC0 != 0x80 {
			return nil, s.scannerError(context, start, "found an incorrect trailing UTF-8 octet")
		}
		b = append(b, octet)
		s.skip()
		s.skip()
		s.skip()
		w--
		if w == 0 {
			return b, true
		}
	}
}
