"""Comments kept across formatting: the canonical layout with the document's comments put back.

``fmt`` rewrites a sidecar in the canonical layout (Go's exact bytes). People
annotate sidecars (``# owner: platform-eval, INC-1234``), and a formatter
that deletes those notes loses data silently. So :func:`format_document`
writes the canonical layout and then puts every comment back next to the key
or list item it belongs to, wherever that key lands in the canonical order.

A comment is attached by where it sits in the source:

- before all content: it stays at the top (this includes the
  ``# yaml-language-server: $schema=...`` modeline editors read);
- after all content: it stays at the end;
- on a line of its own: it belongs to the key or list item that follows,
  and is written directly above that key's line, indented like it;
- after something on the same line: it belongs to that line's key or list
  item (the innermost one), and ends that key's line, after one space.

Keys and items are identified by their path (``verification.test_cmd[2]``,
``difficulty_signals['edge_count']``), so a comment moves with its key when
the canonical layout reorders keys. A comment that has no place in the
canonical layout (its key is omitted there, it sits inside ``[...]`` or
``{...}``, between a key and its value, ...) makes the function refuse the
document with a :class:`CommentError` naming the comment's line and column:
a comment is never dropped silently, and never moved somewhere it could be
misread.

Comments are not YAML tokens, so they are found in the text between the
tokens libyaml's scanner reports (PyYAML's C scanner gives every token's
start and end), plus the one place a comment sits inside a token: after a
block scalar's ``|``/``>`` header. Every ``#`` of the source must be inside
a token or in a found comment, or the document is refused; and the result
is re-read before it is returned, to prove it holds the same spec and the
same comments.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Final

import yaml
from yaml._yaml import CParser
from yaml.tokens import (
    AliasToken,
    AnchorToken,
    BlockEndToken,
    BlockEntryToken,
    BlockMappingStartToken,
    BlockSequenceStartToken,
    DirectiveToken,
    DocumentEndToken,
    DocumentStartToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
    KeyToken,
    ScalarToken,
    StreamEndToken,
    StreamStartToken,
    TagToken,
    ValueToken,
)

from taskspec._api import marshal_yaml, parse_task_spec
from taskspec._errors import DecodeError, TaskSpecError, Violation
from taskspec.bridge._layout import K_INT_MAP, K_MESSAGE, K_MESSAGE_LIST, TASK_SPEC, MessageInfo

__all__ = ["CommentError", "format_document"]

#: The advice every refusal ends with.
_ADVICE: Final = "move or delete it (or use --strip-comments)"

# libyaml's line breaks: a comment ends at any of them, and each one starts
# a new line in libyaml's marks (which positions in messages follow).
_BREAK: Final = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BREAK_CHARS: Final = "\r\n\x85\u2028\u2029"
_BREAK_CHAR: Final = re.compile(f"[{_BREAK_CHARS}]")
# A block scalar's header: indicator, chomping/indentation indicators, and
# an optional comment (libyaml takes '#' even without a space before it).
_BLOCK_HEADER: Final = re.compile("[|>][0-9+-]*[ \t]*(#[^\r\n\x85\u2028\u2029]*)?")

# Tokens with no text of their own, reported at the position of the token
# that follows them; they say nothing about where a comment belongs.
_STRUCTURAL: Final = (BlockMappingStartToken, BlockSequenceStartToken, BlockEndToken)
# Tokens that are not part of the document's content.
_FRAMING: Final = (
    StreamStartToken,
    StreamEndToken,
    DirectiveToken,
    DocumentStartToken,
    DocumentEndToken,
    BlockEndToken,
)
_FLOW_START: Final = (FlowSequenceStartToken, FlowMappingStartToken)
_FLOW_END: Final = (FlowSequenceEndToken, FlowMappingEndToken)

_Path = tuple[str | int, ...]


class CommentError(DecodeError):
    """A comment of a valid document has no place in the canonical layout.

    Unlike other decode errors it lists every such comment, one violation
    each, in source order, so that one run shows everything to fix.
    """


@dataclass(slots=True)
class _Anchor:
    """A block mapping key or block sequence item: what a comment can belong to."""

    path: _Path
    index: int  # character index of the key (or its '?') or of the item's '-'
    line: int  # 0-based libyaml line of ``index``


@dataclass(slots=True)
class _Comment:
    """One comment of the source, with what its surroundings say about it."""

    index: int  # character index of the '#'
    text: str  # from '#' to the end of the line, trailing blanks removed
    full_line: bool  # nothing but blanks before it on its line
    prev: int  # stream index of the last token with text before it (-1: none)
    depth: int  # flow nesting ([ ] { }) it sits in
    header_of: int = -1  # stream index of the block scalar whose header holds it


@dataclass(slots=True)
class _Scan:
    """A document's tokens, its keys and items, and its comments."""

    text: str
    tokens: list[Any]
    owner: list[int]  # per token: the anchor it belongs to (-1: none)
    anchors: list[_Anchor] = field(default_factory=list)
    comments: list[_Comment] = field(default_factory=list)
    first_content: int = 0  # stream index of the first content token
    last_content: int = -1  # stream index of the last content token
    line_starts: list[int] = field(default_factory=list)

    def position(self, index: int) -> tuple[int, int]:
        """0-based (line, column) of a character index, as libyaml counts them."""
        if not self.line_starts:
            self.line_starts = [0] + [m.end() for m in _BREAK.finditer(self.text)]
        line = bisect_right(self.line_starts, index) - 1
        return line, index - self.line_starts[line]


class _LayoutError(Exception):
    """The token stream is not shaped as a strictly decoded document must be."""


def _tokens(data: bytes) -> list[Any]:
    parser = CParser(data)
    tokens: list[Any] = []
    try:
        while True:
            token = parser.get_token()
            if token is None:
                return tokens
            tokens.append(token)
    except yaml.YAMLError as err:  # pragma: no cover - the document was decoded already
        raise _LayoutError(str(err)) from None
    finally:
        parser.dispose()


class _Tree:
    """Walks the tokens of a block-style document, naming every key and item by its path.

    Flow collections (``[...]``, ``{...}``) are walked as one opaque value:
    comments cannot be kept inside them, so their entries need no name.
    """

    def __init__(self, scan: _Scan) -> None:
        self.scan = scan
        self.t = scan.tokens
        self.i = 0
        self.aliases: dict[str, str | None] = {}

    def take(self, owner: int) -> Any:
        token = self.t[self.i]
        self.scan.owner[self.i] = owner
        self.i += 1
        return token

    def anchor(self, path: _Path, token: Any) -> int:
        mark = token.start_mark
        self.scan.anchors.append(_Anchor(path, mark.index, mark.line))
        return len(self.scan.anchors) - 1

    def run(self) -> None:
        while isinstance(self.t[self.i], (StreamStartToken, DirectiveToken, DocumentStartToken)):
            self.i += 1
        self.node((), -1, indentless=False)
        while self.i < len(self.t):
            if not isinstance(self.t[self.i], (BlockEndToken, DocumentEndToken, StreamEndToken)):
                raise _LayoutError(f"unexpected {type(self.t[self.i]).__name__}")
            self.i += 1

    def node(self, path: _Path, owner: int, *, indentless: bool) -> str | None:
        """Consume one node (or nothing, for an empty one); return its text if a scalar."""
        name: str | None = None
        while isinstance(self.t[self.i], (AnchorToken, TagToken)):
            token = self.take(owner)
            if isinstance(token, AnchorToken):
                name = token.value
        token = self.t[self.i]
        value: str | None = None
        if isinstance(token, ScalarToken):
            value = self.take(owner).value
        elif isinstance(token, AliasToken):
            value = self.aliases.get(self.take(owner).value)
        elif isinstance(token, BlockMappingStartToken):
            self.take(owner)
            self.mapping(path, owner)
        elif isinstance(token, BlockSequenceStartToken):
            self.take(owner)
            self.sequence(path)
            self.take(owner)  # its BlockEnd
        elif isinstance(token, BlockEntryToken) and indentless:
            self.sequence(path)
        elif isinstance(token, _FLOW_START):
            self.flow(owner)
        if name is not None:
            self.aliases[name] = value
        return value

    def mapping(self, path: _Path, owner: int) -> None:
        while isinstance(self.t[self.i], KeyToken):
            key_token = self.t[self.i]
            a = self.anchor(path, key_token)
            self.take(a)
            key = self.node(path, a, indentless=False)
            if key is None:
                raise _LayoutError("a mapping key that is not a string")
            child = (*path, key)
            self.scan.anchors[a].path = child
            if isinstance(self.t[self.i], ValueToken):
                self.take(a)
                self.node(child, a, indentless=True)
        if not isinstance(self.t[self.i], BlockEndToken):
            raise _LayoutError(f"unexpected {type(self.t[self.i]).__name__} in a mapping")
        self.take(owner)

    def sequence(self, path: _Path) -> None:
        n = 0
        while isinstance(self.t[self.i], BlockEntryToken):
            child = (*path, n)
            a = self.anchor(child, self.t[self.i])
            self.take(a)
            self.node(child, a, indentless=False)
            n += 1

    def flow(self, owner: int) -> None:
        depth = 0
        name: str | None = None
        while True:
            token = self.take(owner)
            if isinstance(token, _FLOW_START):
                depth += 1
            elif isinstance(token, _FLOW_END):
                depth -= 1
                if depth == 0:
                    return
            elif isinstance(token, AnchorToken):
                name = token.value
                continue
            elif isinstance(token, ScalarToken) and name is not None:
                self.aliases[name] = token.value
            elif isinstance(token, TagToken):
                continue
            name = None


def _scan(data: bytes, text: str, *, comments: bool) -> _Scan:
    """Tokenize *data* (whose text, without a leading BOM, is *text*).

    With *comments*, also find every comment and check that each ``#`` of
    the text is inside a token or a found comment.
    """
    tokens = _tokens(data)
    scan = _Scan(text, tokens, [-1] * len(tokens))
    _Tree(scan).run()
    content = [i for i, t in enumerate(tokens) if not isinstance(t, _FRAMING)]
    if content:
        scan.first_content, scan.last_content = content[0], content[-1]
    else:  # pragma: no cover - a decoded document has content
        scan.first_content, scan.last_content = len(tokens), -1
    if comments:
        _find_comments(scan)
    return scan


def _find_comments(scan: _Scan) -> None:
    text = scan.text
    found = scan.comments
    cursor = 0  # end of the text covered by tokens so far
    prev = -1
    depth = 0
    for i, token in enumerate(scan.tokens):
        start, end = token.start_mark.index, token.end_mark.index
        if end > start:
            if start > cursor:
                _gap(scan, cursor, start, prev, depth)
            if isinstance(token, ScalarToken) and token.style in ("|", ">"):
                header = _BLOCK_HEADER.match(text, start)
                if header is not None and header.group(1):
                    found.append(
                        _Comment(header.start(1), header.group(1).rstrip(" \t"), False, i, depth, i)
                    )
            cursor = max(cursor, end)
            prev = i
        if isinstance(token, _FLOW_START):
            depth += 1
        elif isinstance(token, _FLOW_END):
            depth -= 1
    if cursor < len(text):
        _gap(scan, cursor, len(text), prev, depth)
    _account_for_hashes(scan)


def _gap(scan: _Scan, start: int, end: int, prev: int, depth: int) -> None:
    """Record the comments in text between two tokens (only blanks, breaks and comments)."""
    text = scan.text
    at = text.find("#", start, end)
    while at != -1:
        stop = _BREAK_CHAR.search(text, at, end)
        until = stop.start() if stop is not None else end
        # Gaps hold only blanks, breaks and comments, and a comment runs to a
        # break: so the '#' starts its line's text when a break comes before
        # it in the gap, or the gap itself starts a line.
        full_line = (
            start == 0
            or text[start - 1] in _BREAK_CHARS
            or _BREAK_CHAR.search(text, start, at) is not None
        )
        scan.comments.append(_Comment(at, text[at:until].rstrip(" \t"), full_line, prev, depth))
        at = text.find("#", until, end)


def _account_for_hashes(scan: _Scan) -> None:
    """Refuse a document with a '#' that is neither inside a token nor a found comment.

    It cannot happen with the scanner as understood here; the check makes
    sure that a misunderstanding shows up as a refusal, not as a comment
    dropped without a word.
    """
    text = scan.text
    total = text.count("#")
    inside = 0
    for token in scan.tokens:
        start, end = token.start_mark.index, token.end_mark.index
        if end > start:
            inside += text.count("#", start, end)
    in_comments = 0
    for c in scan.comments:
        n = c.text.count("#")
        in_comments += n
        if c.header_of >= 0:
            inside -= n  # counted with its block scalar already
    if inside + in_comments == total:
        return
    covered = [(c.index, c.index + len(c.text)) for c in scan.comments]
    covered += [(t.start_mark.index, t.end_mark.index) for t in scan.tokens]
    at = text.find("#")
    while at != -1:
        if not any(s <= at < e for s, e in covered):
            line, column = scan.position(at)
            raise CommentError(
                [
                    Violation(
                        "",
                        "cannot keep this comment: it is in a place the formatter does not"
                        f" understand; {_ADVICE}",
                        line + 1,
                        column + 1,
                    )
                ]
            )
        at = text.find("#", at + 1)
    raise _LayoutError("a '#' counted twice")  # pragma: no cover


def _field_path(path: _Path) -> str:
    """A path as the field paths of violations spell it (``difficulty_signals['a']``)."""
    out = ""
    info: MessageInfo | None = TASK_SPEC
    map_key = False
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif map_key or info is None:
            out += f"[{part!r}]"
            map_key = False
        else:
            out = f"{out}.{part}" if out else part
            fi = info.by_name.get(part)
            map_key = fi is not None and fi.kind is K_INT_MAP
            info = fi.message if fi is not None and fi.kind in (K_MESSAGE, K_MESSAGE_LIST) else None
    return out


# Where an inserted comment goes relative to others at the same offset.
_HEAD, _ABOVE, _EOL, _TAIL = range(4)


@dataclass(slots=True)
class _Placed:
    """A comment's place in the canonical text, as an insertion at a character offset."""

    offset: int
    group: int  # _HEAD, _ABOVE, _EOL or _TAIL
    source: int  # character index in the source, for a stable order
    text: str


class _Refusals:
    def __init__(self, scan: _Scan) -> None:
        self.scan = scan
        self.violations: list[Violation] = []

    def add(self, comment: _Comment, path: _Path | None, reason: str) -> None:
        line, column = self.scan.position(comment.index)
        where = _field_path(path) if path else ""
        self.violations.append(
            Violation(where, f"cannot keep this comment: {reason}; {_ADVICE}", line + 1, column + 1)
        )


class _Layout:
    """The canonical text's lines, as offsets to insert comments at.

    A comment above a key goes at the start of the key's line as libyaml
    counts lines, which is not always after an LF: yaml.v3 writes a U+2028
    or U+2029 that ends a block scalar raw, and the next key follows it on
    the same LF-ended line. An end-of-line comment goes before the first LF
    after its key, which ends the key's header: values never hold a raw LF
    outside a block scalar, and a block scalar starts on the next line.
    """

    def __init__(self, canonical: _Scan) -> None:
        text = canonical.text
        self.text = text
        self.by_path = {a.path: a for a in canonical.anchors}
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        self.indent: dict[int, int] = {}  # line start -> column of its first key or item
        for a in canonical.anchors:
            start = self.line_start(a.index)
            if start not in self.indent:
                if text[start : a.index].strip(" "):  # pragma: no cover - defensive
                    raise _LayoutError("a key that does not start its line")
                self.indent[start] = a.index - start

    def line_start(self, index: int) -> int:
        return self.starts[bisect_right(self.starts, index) - 1]

    def line_end(self, index: int) -> int:
        return self.text.index("\n", index)


def _place(source: _Scan, layout: _Layout) -> list[_Placed]:
    """Where each source comment goes in the canonical text; refuses the ones with no place."""
    refusals = _Refusals(source)
    placed: list[_Placed] = []
    eol_at: dict[int, _Comment] = {}
    tokens, owner, anchors = source.tokens, source.owner, source.anchors
    end = len(layout.text)

    def named(i: int) -> str:
        return repr(_field_path(anchors[i].path)) if i >= 0 else "the document"

    for c in source.comments:
        target = -1  # anchor it belongs to
        eol = not c.full_line
        if c.header_of >= 0:
            target = owner[c.header_of]
        elif c.prev < source.first_content:
            placed.append(_Placed(0, _HEAD, c.index, c.text))
            continue
        elif c.depth > 0:
            refusals.add(
                c,
                anchors[owner[c.prev]].path if owner[c.prev] >= 0 else None,
                "it sits inside a [...] or {...} collection, whose entries the canonical"
                " layout writes one per line",
            )
            continue
        elif eol:
            if isinstance(tokens[c.prev], DocumentEndToken):
                placed.append(_Placed(end, _TAIL, c.index, c.text))
                continue
            target = owner[c.prev]
            if target >= 0:
                line = source.position(c.index)[0]
                if line != anchors[target].line and not isinstance(
                    tokens[c.prev], (ScalarToken, AliasToken)
                ):
                    refusals.add(
                        c,
                        anchors[target].path,
                        f"it ends a line inside the value of {named(target)}, which starts on"
                        f" line {anchors[target].line + 1} and is written in another shape in"
                        " the canonical layout",
                    )
                    continue
        elif source.last_content <= c.prev:
            placed.append(_Placed(end, _TAIL, c.index, c.text))
            continue
        else:
            n = c.prev + 1
            while isinstance(tokens[n], _STRUCTURAL):
                n += 1
            if not isinstance(tokens[n], (KeyToken, BlockEntryToken)):
                refusals.add(
                    c,
                    anchors[owner[n]].path if owner[n] >= 0 else None,
                    f"it sits between {named(owner[n])} and its value, which the canonical"
                    " layout writes on one line",
                )
                continue
            target = owner[n]
        if target < 0:
            refusals.add(c, None, "the canonical layout has no line for it")
            continue
        found = layout.by_path.get(anchors[target].path)
        if found is None:
            refusals.add(
                c,
                anchors[target].path,
                f"it belongs to {named(target)}, which the canonical layout omits because"
                " its value is empty",
            )
            continue
        if not eol:
            placed.append(_Placed(layout.line_start(found.index), _ABOVE, c.index, c.text))
            continue
        at = layout.line_end(found.index)
        first = eol_at.get(at)
        if first is not None:
            refusals.add(
                c,
                anchors[target].path,
                f"it belongs to {named(target)}, whose line in the canonical layout already"
                f" ends with the comment from line {source.position(first.index)[0] + 1}",
            )
            continue
        eol_at[at] = c
        placed.append(_Placed(at, _EOL, c.index, c.text))
    if refusals.violations:
        raise CommentError(refusals.violations)
    placed.sort(key=lambda p: (p.offset, p.group, p.source))
    return placed


def _render(layout: _Layout, placed: list[_Placed]) -> str:
    text = layout.text
    out: list[str] = []
    done = 0
    for p in placed:
        out.append(text[done : p.offset])
        done = p.offset
        if p.group == _EOL:
            out.append(" " + p.text)
        elif p.group == _ABOVE:
            out.append(" " * layout.indent[p.offset] + p.text + "\n")
        else:
            out.append(p.text + "\n")
    out.append(text[done:])
    return "".join(out)


def _source_text(data: bytes) -> str:
    text = data.decode("utf-8")
    return text[1:] if text.startswith("\ufeff") else text


def format_document(data: bytes, *, strip_comments: bool = False) -> bytes:
    """The canonical layout of *data* with its comments kept where they belong.

    *data* is parsed and validated exactly as :func:`taskspec.parse_task_spec`
    does, and its errors are raised unchanged. The result is
    ``marshal_yaml(spec)`` (Go's exact bytes) with each comment of *data*
    put back: leading comments at the top, trailing ones at the end, a
    comment on a line of its own directly above the key or list item that
    followed it, and an end-of-line comment at the end of its key's line.
    Without comments, or with *strip_comments*, the result is exactly
    ``marshal_yaml(spec)``. Formatting the result again gives the same bytes.

    Raises :class:`CommentError` (a :class:`~taskspec.DecodeError`) naming
    the line and column of every comment that has no place in the canonical
    layout, rather than dropping it.
    """
    spec = parse_task_spec(data)
    canonical = marshal_yaml(spec)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if strip_comments or b"#" not in raw:
        return canonical
    text = _source_text(raw)
    try:
        source = _scan(raw, text, comments=True)
    except _LayoutError as err:  # pragma: no cover - defensive
        raise DecodeError(f"cannot keep the comments: unexpected layout ({err})") from None
    if not source.comments:
        return canonical  # every '#' is inside a string
    ctext = canonical.decode("utf-8")
    try:
        layout = _Layout(_scan(canonical, ctext, comments=False))
    except _LayoutError as err:  # pragma: no cover - defensive
        raise DecodeError(f"cannot keep the comments: unexpected layout ({err})") from None
    placed = _place(source, layout)
    out = _render(layout, placed).encode("utf-8")
    _check(out, spec, [p.text for p in placed], source)
    return out


def _check(out: bytes, spec: Any, texts: list[str], source: _Scan) -> None:
    """Prove that *out* reads back as *spec* and carries *texts*, in this order."""
    problem = ""
    try:
        if parse_task_spec(out) != spec:
            problem = "it would change the spec"
        else:
            got = [c.text for c in _scan(out, out.decode("utf-8"), comments=True).comments]
            if got != texts:
                problem = "they would not read back as the same comments"
    except (TaskSpecError, _LayoutError) as err:
        problem = f"the result would not read back ({err})"
    if problem:
        line, column = source.position(source.comments[0].index)
        raise CommentError(
            [
                Violation(
                    "",
                    f"cannot keep the comments: {problem}; please report this, and use"
                    " --strip-comments meanwhile",
                    line + 1,
                    column + 1,
                )
            ]
        )
