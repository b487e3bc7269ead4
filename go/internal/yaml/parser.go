package yaml

// The parser turns tokens into events, following libyaml's parser.c: one
// function per production, a stack of states to return to and a stack of
// the marks where the open collections started.

type eventKind int

const (
	evNone eventKind = iota
	evStreamStart
	evStreamEnd
	evDocumentStart
	evDocumentEnd
	evAlias
	evScalar
	evSequenceStart
	evSequenceEnd
	evMappingStart
	evMappingEnd
)

// An event is yaml_event_t, with what the composer needs: for a document
// start, implicit says it had no "---"; for a scalar, implicit is
// plain_implicit; flow is a collection's flow style.
type event struct {
	kind        eventKind
	start, end  Mark
	anchor, tag string
	value       string
	style       Style
	implicit    bool
	flow        bool
	version     [2]int // a document's %YAML directive, zero when none
}

type parseState int

const (
	stateStreamStart parseState = iota
	stateImplicitDocumentStart
	stateDocumentStart
	stateDocumentContent
	stateDocumentEnd
	stateBlockNode
	stateBlockNodeOrIndentlessSequence
	stateFlowNode
	stateBlockSequenceFirstEntry
	stateBlockSequenceEntry
	stateIndentlessSequenceEntry
	stateBlockMappingFirstKey
	stateBlockMappingKey
	stateBlockMappingValue
	stateFlowSequenceFirstEntry
	stateFlowSequenceEntry
	stateFlowSequenceEntryMappingKey
	stateFlowSequenceEntryMappingValue
	stateFlowSequenceEntryMappingEnd
	stateFlowMappingFirstKey
	stateFlowMappingKey
	stateFlowMappingValue
	stateFlowMappingEmptyValue
	stateEnd
)

type tagDirective struct{ handle, prefix string }

type parser struct {
	s             scanner
	state         parseState
	states        []parseState
	marks         []Mark
	tagDirectives []tagDirective
	peeked        *event
	err           *Error
}

func newParser(data []byte, start int) *parser {
	p := &parser{s: scanner{data: data, p: start, mark: Mark{Offset: start}}}
	return p
}

// peek is PEEK_TOKEN, with the scanner's error taken over.
func (p *parser) peek() *token {
	t := p.s.peek()
	if t == nil {
		p.err = p.s.err
	}
	return t
}

func (p *parser) pushState(st parseState) { p.states = append(p.states, st) }

func (p *parser) popState() parseState {
	st := p.states[len(p.states)-1]
	p.states = p.states[:len(p.states)-1]
	return st
}

func (p *parser) popMark() Mark {
	m := p.marks[len(p.marks)-1]
	p.marks = p.marks[:len(p.marks)-1]
	return m
}

// parserError is yaml_parser_set_parser_error and, with a context,
// yaml_parser_set_parser_error_context.
func (p *parser) parserError(context string, contextMark Mark, problem string, problemMark Mark) (event, bool) {
	p.err = &Error{Kind: ParserError, Context: context, ContextMark: contextMark, Problem: problem, ProblemMark: problemMark}
	return event{}, false
}

// next is yaml_parser_parse: the next event, or false with p.err set. After
// the stream's end it gives no more events.
func (p *parser) next() (event, bool) {
	if p.peeked != nil {
		e := *p.peeked
		p.peeked = nil
		return e, true
	}
	if p.err != nil || p.state == stateEnd {
		return event{}, false
	}
	return p.stateMachine()
}

// peekEvent is the next event, left to be read again, or nil on error.
func (p *parser) peekEvent() *event {
	if p.peeked == nil {
		e, ok := p.next()
		if !ok {
			return nil
		}
		p.peeked = &e
	}
	return p.peeked
}

// stateMachine is yaml_parser_state_machine.
func (p *parser) stateMachine() (event, bool) {
	switch p.state {
	case stateStreamStart:
		return p.parseStreamStart()
	case stateImplicitDocumentStart:
		return p.parseDocumentStart(true)
	case stateDocumentStart:
		return p.parseDocumentStart(false)
	case stateDocumentContent:
		return p.parseDocumentContent()
	case stateDocumentEnd:
		return p.parseDocumentEnd()
	case stateBlockNode:
		return p.parseNode(true, false)
	case stateBlockNodeOrIndentlessSequence:
		return p.parseNode(true, true)
	case stateFlowNode:
		return p.parseNode(false, false)
	case stateBlockSequenceFirstEntry:
		return p.parseBlockSequenceEntry(true)
	case stateBlockSequenceEntry:
		return p.parseBlockSequenceEntry(false)
	case stateIndentlessSequenceEntry:
		return p.parseIndentlessSequenceEntry()
	case stateBlockMappingFirstKey:
		return p.parseBlockMappingKey(true)
	case stateBlockMappingKey:
		return p.parseBlockMappingKey(false)
	case stateBlockMappingValue:
		return p.parseBlockMappingValue()
	case stateFlowSequenceFirstEntry:
		return p.parseFlowSequenceEntry(true)
	case stateFlowSequenceEntry:
		return p.parseFlowSequenceEntry(false)
	case stateFlowSequenceEntryMappingKey:
		return p.parseFlowSequenceEntryMappingKey()
	case stateFlowSequenceEntryMappingValue:
		return p.parseFlowSequenceEntryMappingValue()
	case stateFlowSequenceEntryMappingEnd:
		return p.parseFlowSequenceEntryMappingEnd()
	case stateFlowMappingFirstKey:
		return p.parseFlowMappingKey(true)
	case stateFlowMappingKey:
		return p.parseFlowMappingKey(false)
	case stateFlowMappingValue:
		return p.parseFlowMappingValue(false)
	case stateFlowMappingEmptyValue:
		return p.parseFlowMappingValue(true)
	}
	return event{}, false
}

// parseStreamStart is yaml_parser_parse_stream_start.
func (p *parser) parseStreamStart() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokStreamStart {
		return p.parserError("", Mark{}, "did not find expected <stream-start>", t.start)
	}
	p.state = stateImplicitDocumentStart
	e := event{kind: evStreamStart, start: t.start, end: t.end}
	p.s.skipToken()
	return e, true
}

// parseDocumentStart is yaml_parser_parse_document_start: an implicit
// document (content with no directives and no "---"), an explicit one, or
// the stream's end. Extra "..." before a document are skipped.
func (p *parser) parseDocumentStart(implicit bool) (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if !implicit {
		for t.kind == tokDocumentEnd {
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
		}
	}
	switch {
	case implicit && t.kind != tokVersionDirective && t.kind != tokTagDirective &&
		t.kind != tokDocumentStart && t.kind != tokStreamEnd:
		if _, ok := p.processDirectives(); !ok {
			return event{}, false
		}
		p.pushState(stateDocumentEnd)
		p.state = stateBlockNode
		return event{kind: evDocumentStart, start: t.start, end: t.start, implicit: true}, true
	case t.kind != tokStreamEnd:
		start := t.start
		version, ok := p.processDirectives()
		if !ok {
			return event{}, false
		}
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind != tokDocumentStart {
			return p.parserError("", Mark{}, "did not find expected <document start>", t.start)
		}
		p.pushState(stateDocumentEnd)
		p.state = stateDocumentContent
		e := event{kind: evDocumentStart, start: start, end: t.end, version: version}
		p.s.skipToken()
		return e, true
	}
	p.state = stateEnd
	e := event{kind: evStreamEnd, start: t.start, end: t.end}
	p.s.skipToken()
	return e, true
}

// parseDocumentContent is yaml_parser_parse_document_content: an explicit
// document may be empty.
func (p *parser) parseDocumentContent() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	switch t.kind {
	case tokVersionDirective, tokTagDirective, tokDocumentStart, tokDocumentEnd, tokStreamEnd:
		p.state = p.popState()
		return emptyScalar(t.start), true
	}
	return p.parseNode(true, false)
}

// parseDocumentEnd is yaml_parser_parse_document_end: a "..." ends the
// document explicitly; the tag directives end with it.
func (p *parser) parseDocumentEnd() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	start, end := t.start, t.start
	implicit := true
	if t.kind == tokDocumentEnd {
		end = t.end
		p.s.skipToken()
		implicit = false
	}
	p.tagDirectives = p.tagDirectives[:0]
	p.state = stateDocumentStart
	return event{kind: evDocumentEnd, start: start, end: end, implicit: implicit}, true
}

// parseNode is yaml_parser_parse_node: an alias, or a node's properties
// (anchor and tag, in either order) and its content. A node with
// properties and no content is an empty plain scalar.
func (p *parser) parseNode(block, indentlessSequence bool) (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind == tokAlias {
		p.state = p.popState()
		e := event{kind: evAlias, start: t.start, end: t.end, anchor: t.value}
		p.s.skipToken()
		return e, true
	}
	start, end := t.start, t.start
	var anchor, handle, suffix string
	var tagMark Mark
	var tagDifference *Error
	hasTag := false
	takeTag := func() {
		handle, suffix, tagMark, hasTag, tagDifference = t.handle, t.value, t.start, true, t.difference
		end = t.end
	}
	if t.kind == tokAnchor {
		anchor, end = t.value, t.end
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind == tokTag {
			takeTag()
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
		}
	} else if t.kind == tokTag {
		takeTag()
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind == tokAnchor {
			anchor, end = t.value, t.end
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
		}
	}
	tag := ""
	if hasTag {
		if handle == "" {
			tag = suffix
		} else {
			found := false
			for _, d := range p.tagDirectives {
				if d.handle == handle {
					tag, found = d.prefix+suffix, true
					break
				}
			}
			if !found {
				return p.parserError("while parsing a node", start, "found undefined tag handle", tagMark)
			}
		}
	}
	if tagDifference != nil {
		// Refused as the Python library refuses it on libyaml's events: at
		// the node's event (ContextMark: where the node starts).
		d := *tagDifference
		d.Context, d.ContextMark = "while parsing a node", start
		p.err = &d
		return event{}, false
	}
	implicit := tag == ""
	if indentlessSequence && t.kind == tokBlockEntry {
		p.state = stateIndentlessSequenceEntry
		return event{kind: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}, true
	}
	switch t.kind {
	case tokScalar:
		if t.difference != nil {
			p.err = t.difference
			return event{}, false
		}
		p.state = p.popState()
		e := event{kind: evScalar, start: start, end: t.end, anchor: anchor, tag: tag, value: t.value, style: t.style,
			implicit: (t.style == PlainStyle && tag == "") || tag == "!"}
		p.s.skipToken()
		return e, true
	case tokFlowSequenceStart:
		p.state = stateFlowSequenceFirstEntry
		return event{kind: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit, flow: true}, true
	case tokFlowMappingStart:
		p.state = stateFlowMappingFirstKey
		return event{kind: evMappingStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit, flow: true}, true
	case tokBlockSequenceStart:
		if block {
			p.state = stateBlockSequenceFirstEntry
			return event{kind: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}, true
		}
	case tokBlockMappingStart:
		if block {
			p.state = stateBlockMappingFirstKey
			return event{kind: evMappingStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}, true
		}
	}
	if anchor != "" || hasTag {
		p.state = p.popState()
		return event{kind: evScalar, start: start, end: end, anchor: anchor, tag: tag, style: PlainStyle, implicit: implicit}, true
	}
	context := "while parsing a flow node"
	if block {
		context = "while parsing a block node"
	}
	return p.parserError(context, start, "did not find expected node content", t.start)
}

// parseBlockSequenceEntry is yaml_parser_parse_block_sequence_entry.
func (p *parser) parseBlockSequenceEntry(first bool) (event, bool) {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.s.skipToken()
	}
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	switch t.kind {
	case tokBlockEntry:
		mark := t.end
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind != tokBlockEntry && t.kind != tokBlockEnd {
			p.pushState(stateBlockSequenceEntry)
			return p.parseNode(true, false)
		}
		p.state = stateBlockSequenceEntry
		return emptyScalar(mark), true
	case tokBlockEnd:
		p.state = p.popState()
		p.popMark()
		e := event{kind: evSequenceEnd, start: t.start, end: t.end}
		p.s.skipToken()
		return e, true
	}
	return p.parserError("while parsing a block collection", p.popMark(), "did not find expected '-' indicator", t.start)
}

// parseIndentlessSequenceEntry is
// yaml_parser_parse_indentless_sequence_entry: a sequence at its mapping's
// indentation, which ends at the first token that is not '-'.
func (p *parser) parseIndentlessSequenceEntry() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokBlockEntry {
		p.state = p.popState()
		return event{kind: evSequenceEnd, start: t.start, end: t.start}, true
	}
	mark := t.end
	p.s.skipToken()
	if t = p.peek(); t == nil {
		return event{}, false
	}
	switch t.kind {
	case tokBlockEntry, tokKey, tokValue, tokBlockEnd:
		p.state = stateIndentlessSequenceEntry
		return emptyScalar(mark), true
	}
	p.pushState(stateIndentlessSequenceEntry)
	return p.parseNode(true, false)
}

// parseBlockMappingKey is yaml_parser_parse_block_mapping_key.
func (p *parser) parseBlockMappingKey(first bool) (event, bool) {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.s.skipToken()
	}
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	switch t.kind {
	case tokKey:
		mark := t.end
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		switch t.kind {
		case tokKey, tokValue, tokBlockEnd:
			p.state = stateBlockMappingValue
			return emptyScalar(mark), true
		}
		p.pushState(stateBlockMappingValue)
		return p.parseNode(true, true)
	case tokBlockEnd:
		p.state = p.popState()
		p.popMark()
		e := event{kind: evMappingEnd, start: t.start, end: t.end}
		p.s.skipToken()
		return e, true
	}
	return p.parserError("while parsing a block mapping", p.popMark(), "did not find expected key", t.start)
}

// parseBlockMappingValue is yaml_parser_parse_block_mapping_value.
func (p *parser) parseBlockMappingValue() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokValue {
		p.state = stateBlockMappingKey
		return emptyScalar(t.start), true
	}
	mark := t.end
	p.s.skipToken()
	if t = p.peek(); t == nil {
		return event{}, false
	}
	switch t.kind {
	case tokKey, tokValue, tokBlockEnd:
		p.state = stateBlockMappingKey
		return emptyScalar(mark), true
	}
	p.pushState(stateBlockMappingKey)
	return p.parseNode(true, true)
}

// parseFlowSequenceEntry is yaml_parser_parse_flow_sequence_entry: an
// entry that starts with '?' is a single-pair mapping.
func (p *parser) parseFlowSequenceEntry(first bool) (event, bool) {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.s.skipToken()
	}
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokFlowSequenceEnd {
		if !first {
			if t.kind != tokFlowEntry {
				return p.parserError("while parsing a flow sequence", p.popMark(), "did not find expected ',' or ']'", t.start)
			}
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
		}
		if t.kind == tokKey {
			p.state = stateFlowSequenceEntryMappingKey
			e := event{kind: evMappingStart, start: t.start, end: t.end, implicit: true, flow: true}
			p.s.skipToken()
			return e, true
		}
		if t.kind != tokFlowSequenceEnd {
			p.pushState(stateFlowSequenceEntry)
			return p.parseNode(false, false)
		}
	}
	p.state = p.popState()
	p.popMark()
	e := event{kind: evSequenceEnd, start: t.start, end: t.end}
	p.s.skipToken()
	return e, true
}

// parseFlowSequenceEntryMappingKey is
// yaml_parser_parse_flow_sequence_entry_mapping_key, as in libyaml 0.2.5
// (the version PyYAML's wheels carry): a ':', ',' or ']' right after the
// '?' is skipped as the empty key's end, so "[?]", "[? : x]" and "[?, a]"
// are refused ("did not find expected ',' or ']'"); libyaml's later fix
// reads "[?]" as an empty key and value.
func (p *parser) parseFlowSequenceEntryMappingKey() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokValue && t.kind != tokFlowEntry && t.kind != tokFlowSequenceEnd {
		p.pushState(stateFlowSequenceEntryMappingValue)
		return p.parseNode(false, false)
	}
	mark := t.end
	p.s.skipToken()
	p.state = stateFlowSequenceEntryMappingValue
	return emptyScalar(mark), true
}

// parseFlowSequenceEntryMappingValue is
// yaml_parser_parse_flow_sequence_entry_mapping_value. An empty value is
// where the token after the ':' starts.
//
// Difference "flow-pair-empty-value-mark": yaml.v3's port shadows the
// token it peeks after the ':', so its empty value is at the ':' ("[a: ]"
// has the null at column 3 in yaml.v3, at column 5 in libyaml).
func (p *parser) parseFlowSequenceEntryMappingValue() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind == tokValue {
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind != tokFlowEntry && t.kind != tokFlowSequenceEnd {
			p.pushState(stateFlowSequenceEntryMappingEnd)
			return p.parseNode(false, false)
		}
	}
	p.state = stateFlowSequenceEntryMappingEnd
	return emptyScalar(t.start), true
}

// parseFlowSequenceEntryMappingEnd is
// yaml_parser_parse_flow_sequence_entry_mapping_end.
func (p *parser) parseFlowSequenceEntryMappingEnd() (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	p.state = stateFlowSequenceEntry
	return event{kind: evMappingEnd, start: t.start, end: t.start}, true
}

// parseFlowMappingKey is yaml_parser_parse_flow_mapping_key.
func (p *parser) parseFlowMappingKey(first bool) (event, bool) {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.s.skipToken()
	}
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if t.kind != tokFlowMappingEnd {
		if !first {
			if t.kind != tokFlowEntry {
				return p.parserError("while parsing a flow mapping", p.popMark(), "did not find expected ',' or '}'", t.start)
			}
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
		}
		if t.kind == tokKey {
			p.s.skipToken()
			if t = p.peek(); t == nil {
				return event{}, false
			}
			if t.kind != tokValue && t.kind != tokFlowEntry && t.kind != tokFlowMappingEnd {
				p.pushState(stateFlowMappingValue)
				return p.parseNode(false, false)
			}
			p.state = stateFlowMappingValue
			return emptyScalar(t.start), true
		}
		if t.kind != tokFlowMappingEnd {
			p.pushState(stateFlowMappingEmptyValue)
			return p.parseNode(false, false)
		}
	}
	p.state = p.popState()
	p.popMark()
	e := event{kind: evMappingEnd, start: t.start, end: t.end}
	p.s.skipToken()
	return e, true
}

// parseFlowMappingValue is yaml_parser_parse_flow_mapping_value; empty is
// for a key written without ':' ("{a, b: c}").
func (p *parser) parseFlowMappingValue(empty bool) (event, bool) {
	t := p.peek()
	if t == nil {
		return event{}, false
	}
	if empty {
		p.state = stateFlowMappingKey
		return emptyScalar(t.start), true
	}
	if t.kind == tokValue {
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return event{}, false
		}
		if t.kind != tokFlowEntry && t.kind != tokFlowMappingEnd {
			p.pushState(stateFlowMappingKey)
			return p.parseNode(false, false)
		}
	}
	p.state = stateFlowMappingKey
	return emptyScalar(t.start), true
}

// emptyScalar is yaml_parser_process_empty_scalar.
func emptyScalar(mark Mark) event {
	return event{kind: evScalar, start: mark, end: mark, style: PlainStyle, implicit: true}
}

// processDirectives is yaml_parser_process_directives: the %YAML and %TAG
// directives before a document, then the default handles "!" and "!!".
//
// Difference "yaml-version": libyaml (0.2.5) accepts %YAML 1.1 and 1.2;
// yaml.v3 accepts only 1.1 and refuses "%YAML 1.2" with "found
// incompatible YAML document".
func (p *parser) processDirectives() ([2]int, bool) {
	var version [2]int
	seenVersion := false
	t := p.peek()
	if t == nil {
		return version, false
	}
	for t.kind == tokVersionDirective || t.kind == tokTagDirective {
		if t.kind == tokVersionDirective {
			if seenVersion {
				_, ok := p.parserError("", Mark{}, "found duplicate %YAML directive", t.start)
				return version, ok
			}
			if t.major != 1 || (t.minor != 1 && t.minor != 2) {
				_, ok := p.parserError("", Mark{}, "found incompatible YAML document", t.start)
				return version, ok
			}
			seenVersion = true
			version = [2]int{t.major, t.minor}
		} else if !p.appendTagDirective(tagDirective{t.handle, t.value}, false, t.start) {
			return version, false
		}
		p.s.skipToken()
		if t = p.peek(); t == nil {
			return version, false
		}
	}
	p.appendTagDirective(tagDirective{"!", "!"}, true, t.start)
	p.appendTagDirective(tagDirective{"!!", "tag:yaml.org,2002:"}, true, t.start)
	return version, true
}

// appendTagDirective is yaml_parser_append_tag_directive.
func (p *parser) appendTagDirective(d tagDirective, allowDuplicates bool, mark Mark) bool {
	for _, have := range p.tagDirectives {
		if have.handle == d.handle {
			if allowDuplicates {
				return true
			}
			_, ok := p.parserError("", Mark{}, "found duplicate %TAG directive", mark)
			return ok
		}
	}
	p.tagDirectives = append(p.tagDirectives, d)
	return true
}
