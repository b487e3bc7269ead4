"""Finding a document's comments, and the keys and list items they can belong to.

Comments are not YAML tokens, so they are found in the text between the
tokens libyaml's scanner reports (PyYAML's C scanner gives every token's
start and end), plus the one place a comment sits inside a token: after a
block scalar's ``|``/``>`` header. Every ``#`` of the source must be inside
a token or in a found comment, or the document is refused with a
:class:`CommentError`: a misunderstanding of the scanner shows up as a
refusal, never as a comment dropped without a word.

Comments on lines of their own that follow one another between the same two
tokens are one :class:`Comment`, a block of lines: everything about where
they go is the same for all of them, and a file of millions of comment lines
then costs a few string operations instead of an object, a search and a
placement per line.

The same scan names every block mapping key and block sequence item by its
path (``("verification", "test_cmd", 2)``), and records, for each token,
the key or item it belongs to, which is what
:mod:`taskspec.cli._comments_place` needs to decide where a comment goes.
"""

from __future__ import annotations

import re
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

from taskspec._codes import CATALOGUE, COMMENT
from taskspec._errors import DecodeError, Violation
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS, editor_position

__all__ = [
    "ADVICE",
    "BREAK",
    "REPORT",
    "STRUCTURAL",
    "Anchor",
    "Comment",
    "CommentError",
    "KeyPath",
    "LayoutError",
    "Scan",
    "scan_document",
]

#: The advice every refusal ends with.
#: The hints of a comment that has no place: move it, or (when the
#: formatter itself fails to place one) report it.
ADVICE: Final = CATALOGUE[COMMENT].hints[0]
REPORT: Final = CATALOGUE[COMMENT].hints[1]

# libyaml's line breaks: a comment ends at any of them, and each one starts
# a new line in libyaml's marks (which positions in messages follow).
BREAK: Final = LINE_BREAK
_BREAK_CHARS: Final = LINE_ENDS
_BREAK_CHAR: Final = re.compile(f"[{_BREAK_CHARS}]")
# A block scalar's header: indicator, chomping/indentation indicators, and
# an optional comment (libyaml takes '#' even without a space before it).
_BLOCK_HEADER: Final = re.compile(f"[|>][0-9+-]*[ \t]*(#[^{LINE_ENDS}]*)?")

# Tokens with no text of their own, reported at the position of the token
# that follows them; they say nothing about where a comment belongs.
STRUCTURAL: Final = (BlockMappingStartToken, BlockSequenceStartToken, BlockEndToken)
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

KeyPath = tuple[str | int, ...]


class CommentError(DecodeError):
    """A comment of a valid document has no place in the canonical layout.

    Unlike other decode errors it lists every such comment, one violation
    each, in source order, so that one run shows everything to fix.
    """


@dataclass(slots=True)
class Anchor:
    """A block mapping key or block sequence item: what a comment can belong to."""

    path: KeyPath
    index: int  # character index of the key (or its '?') or of the item's '-'
    line: int  # 0-based libyaml line of ``index``


@dataclass(slots=True)
class Comment:
    """One comment of the source, or a block of comment lines, with what surrounds it."""

    index: int  # character index of the (first) '#'
    # From '#' to the end of the line, trailing blanks removed; for a block,
    # its lines so, joined by LF (blank lines left out).
    text: str
    full_line: bool  # nothing but blanks before it on its line
    prev: int  # stream index of the last token with text before it (-1: none)
    depth: int  # flow nesting ([ ] { }) it sits in
    header_of: int = -1  # stream index of the block scalar whose header holds it
    end: int = -1  # character index where its (last) line's text ends

    @property
    def lines(self) -> int:
        """How many comment lines it holds."""
        return self.text.count("\n") + 1


@dataclass(slots=True)
class Scan:
    """A document's tokens, its keys and items, and its comments."""

    text: str
    tokens: list[Any]
    owner: list[int]  # per token: the anchor it belongs to (-1: none)
    anchors: list[Anchor] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    first_content: int = 0  # stream index of the first content token
    last_content: int = -1  # stream index of the last content token
    # The last position asked for, (index, line, line start): the next count starts there.
    _last: tuple[int, int, int] = (0, 0, 0)

    def position(self, index: int) -> tuple[int, int]:
        """0-based (line, column) of a character index, as libyaml counts them.

        The breaks are counted with ``str.count``, from the last position
        asked for when it is not past *index* (positions are mostly asked
        for in order), so a text of millions of lines needs no table of
        line starts.
        """
        text = self.text
        since, line, start = self._last if self._last[0] <= index else (0, 0, 0)
        line += _breaks(text, since, index)
        last_break = max(text.rfind(c, since, index) for c in _BREAK_CHARS)
        if last_break >= 0:
            start = last_break + 1
        self._last = (index, line, start)
        return line, index - start

    def line_shown(self, index: int) -> int:
        """The 1-based line editors show character *index* on (LF, CR LF and CR end lines)."""
        line, column = self.position(index)
        return editor_position(self.text, line + 1, column + 1)[0]

    def refusal(
        self, index: int, message: str, field_path: str = "", hint: str = ADVICE
    ) -> Violation:
        """A problem with the comment at character *index*, at the line and column editors show."""
        line, column = self.position(index)
        line, column = editor_position(self.text, line + 1, column + 1)
        return Violation(field_path, message, line, column, hint, COMMENT)


class LayoutError(Exception):
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
        raise LayoutError(str(err)) from None
    finally:
        parser.dispose()


class _Tree:
    """Walks the tokens of a block-style document, naming every key and item by its path.

    Flow collections (``[...]``, ``{...}``) are walked as one opaque value:
    comments cannot be kept inside them, so their entries need no name.
    """

    def __init__(self, scan: Scan) -> None:
        self.scan = scan
        self.t = scan.tokens
        self.i = 0
        self.aliases: dict[str, str | None] = {}

    def take(self, owner: int) -> Any:
        token = self.t[self.i]
        self.scan.owner[self.i] = owner
        self.i += 1
        return token

    def anchor(self, path: KeyPath, token: Any) -> int:
        mark = token.start_mark
        self.scan.anchors.append(Anchor(path, mark.index, mark.line))
        return len(self.scan.anchors) - 1

    def run(self) -> None:
        while isinstance(self.t[self.i], (StreamStartToken, DirectiveToken, DocumentStartToken)):
            self.i += 1
        self.node((), -1, indentless=False)
        while self.i < len(self.t):
            if not isinstance(self.t[self.i], (BlockEndToken, DocumentEndToken, StreamEndToken)):
                raise LayoutError(f"unexpected {type(self.t[self.i]).__name__}")
            self.i += 1

    def node(self, path: KeyPath, owner: int, *, indentless: bool) -> str | None:
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

    def mapping(self, path: KeyPath, owner: int) -> None:
        while isinstance(self.t[self.i], KeyToken):
            key_token = self.t[self.i]
            a = self.anchor(path, key_token)
            self.take(a)
            key = self.node(path, a, indentless=False)
            if key is None:
                raise LayoutError("a mapping key that is not a string")
            child = (*path, key)
            self.scan.anchors[a].path = child
            if isinstance(self.t[self.i], ValueToken):
                self.take(a)
                self.node(child, a, indentless=True)
        if not isinstance(self.t[self.i], BlockEndToken):
            raise LayoutError(f"unexpected {type(self.t[self.i]).__name__} in a mapping")
        self.take(owner)

    def sequence(self, path: KeyPath) -> None:
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


def scan_document(data: bytes, text: str, *, comments: bool) -> Scan:
    """Tokenize *data* (whose text, without a leading BOM, is *text*).

    With *comments*, also find every comment and check that each ``#`` of
    the text is inside a token or a found comment.
    """
    tokens = _tokens(data)
    scan = Scan(text, tokens, [-1] * len(tokens))
    _Tree(scan).run()
    content = [i for i, t in enumerate(tokens) if not isinstance(t, _FRAMING)]
    if content:
        scan.first_content, scan.last_content = content[0], content[-1]
    else:  # pragma: no cover - a decoded document has content
        scan.first_content, scan.last_content = len(tokens), -1
    if comments:
        _find_comments(scan)
    return scan


def _find_comments(scan: Scan) -> None:
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
                        Comment(
                            header.start(1),
                            header.group(1).rstrip(" \t"),
                            False,
                            i,
                            depth,
                            i,
                            header.end(1),
                        )
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


def _breaks(text: str, start: int, end: int) -> int:
    """How many line breaks libyaml counts in ``text[start:end]`` (CR LF is one)."""
    return sum(text.count(c, start, end) for c in _BREAK_CHARS) - text.count("\r\n", start, end)


#: Blanks and line breaks between two comment lines, with at least one break.
_BETWEEN_LINES: Final = re.compile(f"[ \t]*+(?:(?:{LINE_BREAK.pattern})[ \t]*+)++")


def _block_text(lines: str) -> str:
    """Comment lines (from a '#' to the end of a comment) as a block: trimmed, joined by LF."""
    if not (
        any(c in lines for c in "\t" + LINE_ENDS.replace("\n", ""))
        or " \n" in lines
        or "\n " in lines
        or "\n\n" in lines
    ):
        return lines.rstrip(" ")  # already so: the common case, at no cost
    return _BETWEEN_LINES.sub("\n", lines).rstrip(" \t")


def _gap(scan: Scan, start: int, end: int, prev: int, depth: int) -> None:
    """Record the comments in text between two tokens (only blanks, breaks and comments).

    The first may end a line that has a token; every other one is on a
    line of its own, and they are recorded together, as one block.
    """
    text = scan.text
    at = text.find("#", start, end)
    if at == -1:
        return
    # Gaps hold only blanks, breaks and comments, and a comment runs to a
    # break: so the '#' starts its line's text when a break comes before
    # it in the gap, or the gap itself starts a line.
    full_line = (
        start == 0
        or text[start - 1] in _BREAK_CHARS
        or _BREAK_CHAR.search(text, start, at) is not None
    )
    if not full_line:
        stop = _BREAK_CHAR.search(text, at, end)
        until = stop.start() if stop is not None else end
        scan.comments.append(
            Comment(at, text[at:until].rstrip(" \t"), False, prev, depth, end=until)
        )
        at = text.find("#", until, end)
        if at == -1:
            return
    # The last '#' is on the last comment line (every '#' of a gap is in a comment).
    stop = _BREAK_CHAR.search(text, text.rfind("#", at, end), end)
    until = stop.start() if stop is not None else end
    scan.comments.append(Comment(at, _block_text(text[at:until]), True, prev, depth, end=until))


def _account_for_hashes(scan: Scan) -> None:
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
    covered = [(c.index, c.end) for c in scan.comments]
    covered += [(t.start_mark.index, t.end_mark.index) for t in scan.tokens]
    at = text.find("#")
    while at != -1:
        if not any(s <= at < e for s, e in covered):
            message = "cannot keep this comment: it is in a place the formatter does not understand"
            raise CommentError([scan.refusal(at, message)])
        at = text.find("#", at + 1)
    raise LayoutError("a '#' counted twice")  # pragma: no cover
