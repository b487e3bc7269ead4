"""Loading a document with libyaml, bounded: source text, event pre-scans, composing.

The decoder reads nothing itself: libyaml, through PyYAML's C parser, turns
the text into plain nodes, and :mod:`taskspec.bridge._decode_walk` reads
those. This module is everything that happens before that walk, and the one
place that speaks libyaml's terms (marks, events, its errors):

- the input becomes the UTF-8 bytes libyaml parses and the text the walk
  slices, within MAX_DOCUMENT_BYTES (:func:`source_of`);
- cheap scans over libyaml's *events* reject, before anything is composed,
  a document over the node budget or nested deeper than MAX_DEPTH
  (:func:`check_bounds`), a ``%YAML`` directive yaml.v3 does not read
  (:func:`check_yaml_version`); before them, a byte order mark past the
  start of the text, which the readers read differently, is refused
  (:mod:`taskspec.bridge._decode_bom`);
- :func:`compose` builds the node tree with libyaml's resolver turned off,
  so no constructor runs and no tag can instantiate anything;
- every libyaml failure becomes a :class:`~taskspec.DecodeError` at its
  line and column (:func:`yaml_error`), never a PyYAML exception.
"""

from __future__ import annotations

import re
from functools import partialmethod
from typing import Any, Final

import yaml
from yaml._yaml import CParser
from yaml.composer import Composer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from taskspec._codes import CONTROL_CHARACTER, ENCODING, LIMIT, SYNTAX, TAB_INDENT, UNSUPPORTED
from taskspec._errors import DecodeError, Violation, require_document
from taskspec._forms_gen import (
    MSG_ENCODING_NOT_UTF8,
    MSG_ENCODING_UTF16,
    MSG_LIMIT_DEPTH,
    MSG_LIMIT_NODES,
    MSG_UNSUPPORTED_PLAIN,
    REASON_UNSUPPORTED_COLON_IN_FLOW,
    REASON_UNSUPPORTED_MORE_DOCUMENTS,
    REASON_UNSUPPORTED_TWO_BOMS,
    REASON_UNSUPPORTED_YAML_VERSION,
)
from taskspec._limits import MAX_DEPTH
from taskspec._words import Form, render
from taskspec.bridge._gostr import go_quote
from taskspec.bridge._syntax import (
    LINE_BREAK,
    TAB,
    TEXT_AFTER_DOCUMENT,
    control_character_message,
    prompt_fix,
    prompt_hint,
    syntax_problem,
)

__all__ = [
    "MAPPING",
    "PLAIN",
    "QUOTED",
    "SCALAR",
    "SEQUENCE",
    "TAG_PREFIX",
    "char_position",
    "check_bounds",
    "check_yaml_version",
    "compose",
    "control_character",
    "mark_position",
    "position",
    "refused",
    "source_of",
    "yaml_error",
]

#: The prefix of the standard tags (``!!int`` is ``tag:yaml.org,2002:int``).
TAG_PREFIX: Final = "tag:yaml.org,2002:"
#: The composer's tag for an untagged (or "!"-tagged) plain scalar.
PLAIN: Final = "?"
#: The composer's tag for an untagged quoted or block scalar.
QUOTED: Final = "!"
#: The composer's node classes, for the decoder's type tests, as Final names:
#: the compiled build holds those in C statics, where it looks an imported
#: name up in the module's globals at every use.
SCALAR: Final = ScalarNode
MAPPING: Final = MappingNode
SEQUENCE: Final = SequenceNode
# When a document has few of the characters that can open a nesting level
# (see check_bounds), its depth is provably small and the exact scan is skipped.
_CHEAP_DEPTH_BOUND: Final = 1000


def _tag(kind: type[Node], value: object, implicit: tuple[bool, bool] | bool) -> str:
    """The composer's resolver: plain scalars ``?``, quoted or block ones ``!``.

    Explicit tags come through expanded without asking. The decoder
    interprets plain scalars itself, by the rules of yaml.v3, according to
    the field they belong to.
    """
    if kind is SCALAR:
        assert isinstance(implicit, tuple)
        return PLAIN if implicit[0] else QUOTED
    return ""


def _descend(parent: object, index: object) -> None:
    """The composer's hook on entering a node: no path resolution."""


def _ascend() -> None:
    """The composer's hook on leaving a node: no path resolution."""


#: libyaml's composer with resolution turned off (:func:`_tag`), so that no
#: constructor runs and no tag can instantiate anything. It is made by
#: calling ``type()`` rather than by a class statement on purpose: in the
#: compiled build a class statement becomes a mypyc native class, which
#: cannot extend a C extension type such as CParser (it crashes). Made this
#: way it is an ordinary Python class in either build, and its hooks, static
#: so that both builds call them alike, are compiled functions in the
#: compiled build, which the composer calls without an interpreter frame.
_Loader: Final[type[CParser]] = type(
    "_Loader",
    (CParser,),
    {
        "resolve": staticmethod(_tag),
        "descend_resolver": staticmethod(_descend),
        "ascend_resolver": staticmethod(_ascend),
    },
)


def _compose_node_again(self: Any, parent: Any, index: Any) -> Any:
    """Compose a node as libyaml's composer does, except that an anchor may be defined again.

    YAML 1.2 lets a document define an anchor a second time, and an alias
    means the nearest anchor of that name before it; yaml.v3 reads such a
    document so. libyaml's composer refuses it, so this one forgets the
    earlier node when the anchor is defined again.
    """
    if not self.check_event(yaml.AliasEvent):
        anchor = self.peek_event().anchor
        if anchor is not None:
            self.anchors.pop(anchor, None)
    return Composer.compose_node(self, parent, index)


def _init_again(self: Any, data: bytes) -> None:
    CParser.__init__(self, data)
    Composer.__init__(self)


#: The composer for a document that defines an anchor twice: PyYAML's
#: Python composer, with :func:`_compose_node_again`, over libyaml's events
#: and with the same resolver hooks as :data:`_Loader`. It is slower than
#: libyaml's own composer, so it only runs when that one refuses a
#: duplicate anchor. Its two methods are wrapped in ``partialmethod``: in the
#: compiled build a module-level function is a builtin, which does not bind
#: to an instance as a Python function does, so ``self`` would never be
#: passed; ``partialmethod`` binds any callable, in either build.
_AnchorsAgainLoader: Final[type[CParser]] = type(
    "_AnchorsAgainLoader",
    (Composer, CParser),
    {
        "__init__": partialmethod(_init_again),
        "compose_node": partialmethod(_compose_node_again),
        "resolve": staticmethod(_tag),
        "descend_resolver": staticmethod(_descend),
        "ascend_resolver": staticmethod(_ascend),
    },
)

_DUPLICATE_ANCHOR: Final = "found duplicate anchor"


def mark_position(mark: Any) -> tuple[int, int]:
    """1-based (line, column) of a libyaml mark; (0, 0) when there is none."""
    if mark is None:
        return 0, 0
    return mark.line + 1, mark.column + 1


def position(node: Node) -> tuple[int, int]:
    """1-based (line, column) where *node* starts."""
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


def _at(message: str, mark: Any, code: str = SYNTAX, source: str = "") -> DecodeError:
    """The error *message* of *code* at *mark*, with the prompt-mistake hint *source* gives."""
    line, column = mark_position(mark)
    hint = prompt_hint(code, message, source, line) if source else ""
    fix = prompt_fix(code, message, source, line, column) if hint else None
    return DecodeError([Violation("", message, line, column, hint, code, fix=fix)])


def refused(reason: Form, line: int, column: int) -> DecodeError:
    """TS004 for the document as a whole, for *reason*, at *line* and *column*."""
    message = render(MSG_UNSUPPORTED_PLAIN, reason=render(reason))
    return DecodeError([Violation("", message, line, column, code=UNSUPPORTED)])


def source_of(data: bytes | bytearray | memoryview | str) -> tuple[bytes, str]:
    """The bytes libyaml parses and the text the walk slices, both for *data*.

    Either form is refused past MAX_DOCUMENT_BYTES (of UTF-8), and bytes
    that are not UTF-8, or text that cannot be written as UTF-8, with a
    :class:`~taskspec.DecodeError`.
    """
    raw = require_document(data)
    if raw.startswith(_WIDE_BOMS):
        raise DecodeError([Violation("", render(MSG_ENCODING_UTF16), 1, 1, code=ENCODING)])
    if raw.startswith(_TWO_BOMS):
        raise refused(REASON_UNSUPPORTED_TWO_BOMS, 1, 1)
    if isinstance(data, str):
        return raw, data
    try:
        return raw, raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _utf8_error(raw, err) from None


_TWO_BOMS: Final = "\ufeff\ufeff".encode()


def _utf8_error(data: bytes, err: UnicodeDecodeError) -> DecodeError:
    offset = err.start
    line = data.count(b"\n", 0, offset) + 1
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return DecodeError(
        [
            Violation(
                "",
                render(MSG_ENCODING_NOT_UTF8, byte=f"0x{data[offset]:02x}", offset=offset),
                line,
                column,
                code=ENCODING,
            )
        ]
    )


_WIDE_BOMS: Final = (b"\xfe\xff", b"\xff\xfe", b"\x00\x00\xfe\xff")


def yaml_error(err: yaml.YAMLError, source: str = "") -> DecodeError:
    """A libyaml failure as a decode error in the catalogue's words, at its line and column.

    The parser's problem is mapped to a code and message by
    :func:`taskspec.bridge._syntax.syntax_problem`; libyaml's own text never
    reaches the message. Two failures are what yaml.v3 reads differently,
    and are worded as the strictness they are: a second document that a
    marker starts (libyaml's composer refuses it; yaml.v3 ignores it), and
    a plain scalar ending in ':' inside [] or {} (given *source*). Text
    after the root node with no marker before it is a syntax error (TS005),
    which yaml.v3 does not reach: it stops at the root.
    """
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        if err.context == "expected a single document in the stream":
            return _at(render(REASON_UNSUPPORTED_MORE_DOCUMENTS), mark, UNSUPPORTED)
        if err.problem == "did not find expected <document start>" and not _directive_before(
            source, mark
        ):
            # Text right after the root node, with no marker to start a second
            # document: a syntax error to libyaml, where yaml.v3 stops reading
            # at the root and drops the rest.
            return _at(TEXT_AFTER_DOCUMENT, mark, SYNTAX, source)
        start = err.context_mark
        if (
            source
            and start is not None
            and mark is not None
            and err.context == "while scanning a plain scalar"
            and err.problem == "found unexpected ':'"
        ):
            text = _folded(source[start.index : mark.index + 1])
            message = render(REASON_UNSUPPORTED_COLON_IN_FLOW, value=go_quote(text))
            return _at(message, start, UNSUPPORTED)
        tab = _tab_at(err, mark, source)
        if tab is not None:
            line, column = tab
            hint = prompt_hint(TAB_INDENT, TAB, source, line)
            return DecodeError([Violation("", TAB, line, column, hint, TAB_INDENT)])
        code, message = syntax_problem(err.context, err.problem)
        return _at(message, mark, code, source)
    if isinstance(err, yaml.reader.ReaderError):
        # libyaml's offset counts bytes; the character is the text's first
        # one that YAML refuses, so its first occurrence is where it stands.
        index = source.find(chr(err.character)) if source else -1
        return control_character(source, err.character, index)
    return DecodeError([Violation("", _SYNTAX_FALLBACK, code=SYNTAX)])


def control_character(source: str, character: int, index: int) -> DecodeError:
    """The refusal of *character*, which YAML does not allow, at *index* of *source* (or -1)."""
    message = control_character_message(character)
    line, column = char_position(source, index)
    return DecodeError([Violation("", message, line, column, code=CONTROL_CHARACTER)])


_SYNTAX_FALLBACK: Final = syntax_problem(None, None)[1]


def char_position(source: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of character *index* of *source*, lines as YAML counts them."""
    if not 0 <= index < len(source):
        return 0, 0
    line = 1
    start = 0
    for match in LINE_BREAK.finditer(source, 0, index):
        line += 1
        start = match.end()
    return line, index - start + 1


def _directive_before(source: str, mark: Any) -> bool:
    """Whether a directive line (``%...``) opens the document that ends at *mark*.

    libyaml says "did not find expected <document start>" both of a
    directive not followed by ``---`` and of text after a document's end
    marker (``...``); only the first is a directive problem.
    """
    if not source or mark is None:
        return False
    before = source[: mark.index]
    for text in reversed(LINE_BREAK.split(before)):
        if text.startswith("..."):
            return False
        if text.startswith("%"):
            return True
    return False


def _folded(text: str) -> str:
    """The value of a plain scalar written over the lines of *text*, as YAML folds them.

    Each line is trimmed of its blanks; one line break becomes a space, and
    more become one newline fewer than they are (the value yaml.v3 reads,
    which the Go library's message quotes).
    """
    lines = _LINE_BREAK.split(text)
    out = lines[0].rstrip(" \t")
    breaks = 0
    for line in lines[1:]:
        text = line.strip(" \t")
        if not text:
            breaks += 1
            continue
        out += ("\n" * breaks if breaks else " ") + text
        breaks = 0
    return out


_LINE_BREAK: Final = re.compile("\r\n|\r|\n|\x85")


def _tab_at(err: yaml.MarkedYAMLError, mark: Any, source: str) -> tuple[int, int] | None:
    """The 1-based (line, column) of the tab that *err* is about, or None if it is not one.

    libyaml fails on a tab in indentation either at the tab itself ("found
    character that cannot start any token") or at the start of its line
    ("found a tab character that violates indentation"). Without the
    *source* only the second can be told, and the mark is used as it is.
    """
    if mark is None:
        return None
    problem = err.problem or ""
    if not source:
        return mark_position(mark) if "tab character" in problem else None
    if 0 <= mark.index < len(source) and source[mark.index] == "\t":
        return mark.line + 1, mark.column + 1
    if "tab character" not in problem:
        return None
    start = source.rfind("\n", 0, mark.index) + 1
    end = source.find("\n", start)
    text = source[start : end if end != -1 else len(source)]
    column = text.find("\t")
    return (mark.line + 1, column + 1) if column != -1 else mark_position(mark)


def check_bounds(data: bytes, budget: int, source: str = "") -> None:
    """Fail fast on a document with more than *budget* nodes or nested deeper than MAX_DEPTH.

    Both bounds are enforced on libyaml's parser events, before anything is
    composed: composing costs about half a kilobyte and a microsecond per
    node, so a 10 MiB flow mapping of a million entries would take seconds
    and most of a gigabyte before a walk over the tree could count it.
    Depth must be known early too, because libyaml's scanner is quadratic
    in flow depth and its composer recursive.

    Reading events from Python costs about as much as composing, so the
    scan is skipped when it cannot find anything: every node takes at
    least half a byte of source (``{a,b}`` is two nodes in two bytes), so a
    document of under *budget* / 2 bytes is within the node budget, and
    every nesting level needs one of ``[ { - ?``, so a document with few of
    those, or of few bytes in all, is shallow enough.

    A syntax error is raised as the composer would raise it (given
    *source*), unless the node past a bound comes before it in the text.
    libyaml's scanner reads ahead of its parser, up to 1024 characters on a
    line, so it can meet a syntax error past that node before the parser
    builds the node; which of the two it meets first depends on how the
    text is laid out. So the text before the token in error is scanned
    again, and the first of the two in the text is reported, as the Go
    library reports it.
    """
    if 2 * len(data) + 2 <= budget and (
        len(data) <= _CHEAP_DEPTH_BOUND
        # The openers, counted in one pass rather than four.
        or len(data) - len(data.translate(None, b"[{-?")) <= _CHEAP_DEPTH_BOUND
    ):
        return
    try:
        bound = _first_bound(data, budget)
    except yaml.MarkedYAMLError as err:
        mark = err.context_mark or err.problem_mark
        if source and mark is not None:
            cut = len(source[: mark.index].encode("utf-8"))
            if data.startswith(b"\xef\xbb\xbf"):
                cut += 3  # libyaml's marks do not count a leading BOM
            try:
                bound = _first_bound(data[:cut], budget)
            except yaml.YAMLError:
                bound = None
            if bound is not None:
                raise bound from None
        raise yaml_error(err, source) from None
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None
    if bound is not None:
        raise bound


def _first_bound(data: bytes, budget: int) -> DecodeError | None:
    """The refusal of the first node of *data* past *budget* nodes or MAX_DEPTH levels, or None.

    A syntax error met before it is raised, as libyaml's YAMLError.
    """
    limit = budget
    parser = CParser(data)
    depth = 0
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                budget -= 1
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                budget -= 1
                depth += 1
                if depth > MAX_DEPTH:
                    message = render(MSG_LIMIT_DEPTH, n=MAX_DEPTH)
                    return _at(message, event.start_mark, LIMIT)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                depth -= 1
            elif event is None or kind is yaml.StreamEndEvent or kind is yaml.DocumentEndEvent:
                return None  # later documents are rejected by the composer
            if budget < 0:
                return _at(render(MSG_LIMIT_NODES, n=limit), event.start_mark, LIMIT)
    finally:
        parser.dispose()


def check_yaml_version(data: bytes | str, source: str = "") -> None:
    """Reject a %YAML directive other than 1.1, which is all yaml.v3 reads.

    libyaml also takes ``%YAML 1.2`` (and warns on other 1.x); yaml.v3 fails
    with "found incompatible YAML document". Only the first document
    matters: a second one is rejected anyway. *source* is the text of
    *data*, for the wording of a syntax error met first here (a tab that
    indents, say, with "%YAML" only in a comment).
    """
    parser = CParser(data)
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return
            if isinstance(event, yaml.DocumentStartEvent):
                version = event.version
                if version is not None and tuple(version) != (1, 1):
                    major, minor = version
                    message = render(REASON_UNSUPPORTED_YAML_VERSION, version=f"{major}.{minor}")
                    raise _at(message, event.start_mark, UNSUPPORTED)
                return
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None
    finally:
        parser.dispose()


def compose(data: bytes, source: str = "") -> Node | None:
    """The one document of *data* as nodes (None when empty), no constructor run.

    *source* is the text of *data*, for the wording of some failures.
    """
    try:
        return _compose_with(_Loader, data, source)
    except yaml.composer.ComposerError as err:
        if not (err.context or "").startswith(_DUPLICATE_ANCHOR):
            raise yaml_error(err, source) from None
    try:
        return _compose_with(_AnchorsAgainLoader, data, source)
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None


def _compose_with(loader_type: type[CParser], data: bytes, source: str) -> Node | None:
    loader = loader_type(data)
    try:
        root: Node | None = loader.get_single_node()
    except yaml.composer.ComposerError:
        raise
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None
    except RecursionError:
        raise DecodeError(
            [Violation("", render(MSG_LIMIT_DEPTH, n=MAX_DEPTH), code=LIMIT)]
        ) from None
    finally:
        loader.dispose()
    return root
