package yaml

// scanBlockScalar is yaml_parser_scan_block_scalar: '|' or '>', the
// chomping and indentation indicators in either order, then the lines at
// the scalar's indentation. Its end mark is where the header's line ends,
// as libyaml gives it.
func (s *scanner) scanBlockScalar(literal bool) (token, bool) {
	const context = "while scanning a block scalar"
	start := s.mark
	s.skip()
	chomping, increment := 0, 0
	chomp := func() {
		if s.check('+') || s.check('-') {
			chomping = 1
			if s.check('-') {
				chomping = -1
			}
			s.skip()
		}
	}
	digit := func() bool {
		if c := s.at(0); c >= '0' && c <= '9' {
			if c == '0' {
				return s.scannerError(context, start, "found an indentation indicator equal to 0")
			}
			increment = int(c - '0')
			s.skip()
		}
		return true
	}
	if s.check('+') || s.check('-') {
		chomp()
		if !digit() {
			return token{}, false
		}
	} else if c := s.at(0); c >= '0' && c <= '9' {
		if !digit() {
			return token{}, false
		}
		chomp()
	}
	if !s.skipLineEnd() {
		return token{}, s.scannerError(context, start, "did not find expected comment or line break")
	}
	end := s.mark
	indent := 0
	if increment > 0 {
		if s.indent >= 0 {
			indent = s.indent + increment
		} else {
			indent = increment
		}
	}
	var value, leadingBreak, trailingBreaks []byte
	if !s.scanBlockScalarBreaks(&indent, &trailingBreaks, start, &end) {
		return token{}, false
	}
	leadingBlank, trailingBlank := false, false
	for s.mark.Column == indent && !s.isZ() {
		trailingBlank = s.isBlankAt(0)
		if !literal && len(leadingBreak) > 0 && leadingBreak[0] == '\n' && !leadingBlank && !trailingBlank {
			if len(trailingBreaks) == 0 {
				value = append(value, ' ')
			}
		} else {
			value = append(value, leadingBreak...)
		}
		leadingBreak = leadingBreak[:0]
		value = append(value, trailingBreaks...)
		trailingBreaks = trailingBreaks[:0]
		leadingBlank = s.isBlankAt(0)
		for !s.isBreakZAt(0) {
			value = s.read(value)
		}
		if s.isBreakAt(0) {
			leadingBreak = s.readLine(leadingBreak)
		}
		if !s.scanBlockScalarBreaks(&indent, &trailingBreaks, start, &end) {
			return token{}, false
		}
	}
	if chomping != -1 {
		value = append(value, leadingBreak...)
	}
	if chomping == 1 {
		value = append(value, trailingBreaks...)
	}
	style := FoldedStyle
	if literal {
		style = LiteralStyle
	}
	return token{kind: tokScalar, start: start, end: end, value: string(value), style: style}, true
}

// scanBlockScalarBreaks is yaml_parser_scan_block_scalar_breaks: the
// indentation spaces and empty lines before a line of content, and, when
// it is not set, the indentation itself (the deepest of those lines, at
// least one past the block's).
func (s *scanner) scanBlockScalarBreaks(indent *int, breaks *[]byte, start Mark, end *Mark) bool {
	maxIndent := 0
	*end = s.mark
	for {
		for (*indent == 0 || s.mark.Column < *indent) && s.check(' ') {
			s.skip()
		}
		if s.mark.Column > maxIndent {
			maxIndent = s.mark.Column
		}
		if (*indent == 0 || s.mark.Column < *indent) && s.check('\t') {
			return s.scannerError("while scanning a block scalar", start,
				"found a tab character where an indentation space is expected")
		}
		if !s.isBreakAt(0) {
			break
		}
		*breaks = s.readLine(*breaks)
		*end = s.mark
	}
	if *indent == 0 {
		*indent = maxIndent
		if *indent < s.indent+1 {
			*indent = s.indent + 1
		}
		if *indent < 1 {
			*indent = 1
		}
	}
	return true
}

// scanFlowScalar is yaml_parser_scan_flow_scalar: a single- or
// double-quoted scalar, with its escapes and line folding.
//
// Difference "escape-quote": yaml.v3 reads the escape "\'" as "'"; libyaml
// refuses it ("found unknown escape character"), as here.
// Difference "escape-slash": libyaml reads "\/" as "/"; yaml.v3 3.0.4
// refuses it ("found unknown escape character").
func (s *scanner) scanFlowScalar(single bool) (token, bool) {
	const context = "while scanning a quoted scalar"
	start := s.mark
	s.skip()
	var value, leadingBreak, trailingBreaks, whitespaces []byte
	for {
		if s.mark.Column == 0 && ((s.at(0) == '-' && s.at(1) == '-' && s.at(2) == '-') ||
			(s.at(0) == '.' && s.at(1) == '.' && s.at(2) == '.')) && s.isBlankZAt(3) {
			return token{}, s.scannerError(context, start, "found unexpected document indicator")
		}
		if s.isZ() {
			return token{}, s.scannerError(context, start, "found unexpected end of stream")
		}
		leadingBlanks := false
		for !s.isBlankZAt(0) {
			c := s.at(0)
			switch {
			case single && c == '\'' && s.at(1) == '\'':
				value = append(value, '\'')
				s.skip()
				s.skip()
				continue
			case c == '\'' && single, c == '"' && !single:
			case !single && c == '\\' && s.isBreakAt(1):
				s.skip()
				s.skipLine()
				leadingBlanks = true
			case !single && c == '\\':
				var ok bool
				if value, ok = s.scanEscape(start, value); !ok {
					return token{}, false
				}
				continue
			default:
				value = s.read(value)
				continue
			}
			break
		}
		if s.check('\'') && single || s.check('"') && !single {
			break
		}
		for s.isBlankAt(0) || s.isBreakAt(0) {
			if s.isBlankAt(0) {
				if !leadingBlanks {
					whitespaces = s.read(whitespaces)
				} else {
					s.skip()
				}
			} else if !leadingBlanks {
				whitespaces = whitespaces[:0]
				leadingBreak = s.readLine(leadingBreak)
				leadingBlanks = true
			} else {
				trailingBreaks = s.readLine(trailingBreaks)
			}
		}
		value, leadingBreak, trailingBreaks, whitespaces = join(value, leadingBreak, trailingBreaks, whitespaces, leadingBlanks)
	}
	s.skip()
	style := DoubleQuotedStyle
	if single {
		style = SingleQuotedStyle
	}
	difference := s.difference
	s.difference = nil
	return token{kind: tokScalar, start: start, end: s.mark, value: string(value), style: style, difference: difference}, true
}

// join folds the blanks and breaks between two runs of a flow or plain
// scalar's text into value: with a line break, a lone LF becomes a space
// and further breaks are kept; without one, the blanks are kept. The
// buffers are returned emptied.
func join(value, leadingBreak, trailingBreaks, whitespaces []byte, leadingBlanks bool) ([]byte, []byte, []byte, []byte) {
	if leadingBlanks {
		if len(leadingBreak) > 0 && leadingBreak[0] == '\n' {
			if len(trailingBreaks) == 0 {
				value = append(value, ' ')
			} else {
				value = append(value, trailingBreaks...)
			}
		} else {
			value = append(value, leadingBreak...)
			value = append(value, trailingBreaks...)
		}
	} else {
		value = append(value, whitespaces...)
	}
	return value, leadingBreak[:0], trailingBreaks[:0], whitespaces[:0]
}

// scanEscape is the escape part of yaml_parser_scan_flow_scalar: a
// backslash and what follows it, decoded into value.
func (s *scanner) scanEscape(start Mark, value []byte) ([]byte, bool) {
	const context = "while parsing a quoted scalar"
	codeLength := 0
	switch s.at(1) {
	case '0':
		value = append(value, 0)
	case 'a':
		value = append(value, 7)
	case 'b':
		value = append(value, 8)
	case 't', '\t':
		value = append(value, 9)
	case 'n':
		value = append(value, 10)
	case 'v':
		value = append(value, 11)
	case 'f':
		value = append(value, 12)
	case 'r':
		value = append(value, 13)
	case 'e':
		value = append(value, 0x1B)
	case ' ':
		value = append(value, ' ')
	case '"':
		value = append(value, '"')
	case '/':
		if s.yamlv3 && s.difference == nil {
			// "escape-slash": yaml_parser_scan_flow_scalar reads it,
			// yaml.v3's yaml_parser_scan_flow_scalar refuses it. Refused
			// when the scalar's event is parsed, as the Python library
			// refuses it on libyaml's events.
			s.difference = &Error{Kind: DifferenceError, Difference: "escape-slash", Context: context,
				ContextMark: start, Problem: "found unknown escape character", ProblemMark: s.mark}
		}
		value = append(value, '/')
	case '\\':
		value = append(value, '\\')
	case 'N':
		value = append(value, "\u0085"...)
	case '_':
		value = append(value, "\u00A0"...)
	case 'L':
		value = append(value, "\u2028"...)
	case 'P':
		value = append(value, "\u2029"...)
	case 'x':
		codeLength = 2
	case 'u':
		codeLength = 4
	case 'U':
		codeLength = 8
	default:
		return nil, s.scannerError(context, start, "found unknown escape character")
	}
	s.skip()
	s.skip()
	if codeLength == 0 {
		return value, true
	}
	code := 0
	for k := 0; k < codeLength; k++ {
		if !isHex(s.at(k)) {
			return nil, s.scannerError(context, start, "did not find expected hexdecimal number")
		}
		code = code<<4 + asHex(s.at(k))
	}
	if (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF {
		return nil, s.scannerError(context, start, "found invalid Unicode character escape code")
	}
	value = appendRune(value, code)
	for k := 0; k < codeLength; k++ {
		s.skip()
	}
	return value, true
}

// appendRune writes code in UTF-8 as libyaml does: without refusing
// anything (the caller has refused surrogates and values past U+10FFFF).
func appendRune(b []byte, code int) []byte {
	switch {
	case code <= 0x7F:
		return append(b, byte(code))
	case code <= 0x7FF:
		return append(b, byte(0xC0+code>>6), byte(0x80+code&0x3F))
	case code <= 0xFFFF:
		return append(b, byte(0xE0+code>>12), byte(0x80+(code>>6)&0x3F), byte(0x80+code&0x3F))
	}
	return append(b, byte(0xF0+code>>18), byte(0x80+(code>>12)&0x3F), byte(0x80+(code>>6)&0x3F), byte(0x80+code&0x3F))
}

// scanPlainScalar is yaml_parser_scan_plain_scalar: text up to ": ", " #",
// a document indicator at column 0, a line less indented than the block,
// and, in the flow context, one of ",[]{}". Its end is after its last
// non-blank character. A plain scalar that spans lines allows a simple key
// after it.
//
// Difference "flow-colon": in the flow context libyaml refuses ':'
// followed by one of ",?[]{}" inside a plain scalar ("[go, a:, b]":
// "found unexpected ':'"); yaml.v3 has no such check and reads "a:".
// Difference "flow-question": in the flow context yaml.v3 ends a plain
// scalar at '?' ("[a?b]" is "a" then an error there); libyaml (since 0.2.5)
// keeps '?' in the scalar.
func (s *scanner) scanPlainScalar() (token, bool) {
	start := s.mark
	end := s.mark
	var value, leadingBreak, trailingBreaks, whitespaces []byte
	leadingBlanks := false
	indent := s.indent + 1
	for {
		if s.mark.Column == 0 && ((s.at(0) == '-' && s.at(1) == '-' && s.at(2) == '-') ||
			(s.at(0) == '.' && s.at(1) == '.' && s.at(2) == '.')) && s.isBlankZAt(3) {
			break
		}
		if s.check('#') {
			break
		}
		for !s.isBlankZAt(0) {
			c := s.at(0)
			if s.flowLevel > 0 && c == ':' {
				switch s.at(1) {
				case ',', '?', '[', ']', '{', '}':
					return token{}, s.scannerError("while scanning a plain scalar", start, "found unexpected ':'")
				}
			}
			if (c == ':' && s.isBlankZAt(1)) || (s.flowLevel > 0 &&
				(c == ',' || c == '[' || c == ']' || c == '{' || c == '}')) {
				break
			}
			if leadingBlanks || len(whitespaces) > 0 {
				value, leadingBreak, trailingBreaks, whitespaces = join(value, leadingBreak, trailingBreaks, whitespaces, leadingBlanks)
				leadingBlanks = false
			}
			value = s.read(value)
			end = s.mark
		}
		if !(s.isBlankAt(0) || s.isBreakAt(0)) {
			break
		}
		for s.isBlankAt(0) || s.isBreakAt(0) {
			if s.isBlankAt(0) {
				if leadingBlanks && s.mark.Column < indent && s.check('\t') {
					return token{}, s.scannerError("while scanning a plain scalar", start,
						"found a tab character that violates indentation")
				}
				if !leadingBlanks {
					whitespaces = s.read(whitespaces)
				} else {
					s.skip()
				}
			} else if !leadingBlanks {
				whitespaces = whitespaces[:0]
				leadingBreak = s.readLine(leadingBreak)
				leadingBlanks = true
			} else {
				trailingBreaks = s.readLine(trailingBreaks)
			}
		}
		if s.flowLevel == 0 && s.mark.Column < indent {
			break
		}
	}
	if leadingBlanks {
		s.simpleKeyAllowed = true
	}
	return token{kind: tokScalar, start: start, end: end, value: string(value), style: PlainStyle}, true
}
