"""A fast path for documents that are already in canonical form, proved while reading.

Most sidecars were written by ``MarshalYAML`` (Go's or this package's), so
they are in the one canonical layout: block mappings indented by four
spaces, one key per line, block sequences, literal blocks for multi-line
strings. Composing such a document through libyaml costs far more in Python
object churn than the document is worth, so this module reads the
canonical layout directly.

It is exact by construction, not by trust. The reader walks the writer's own
plans (:mod:`taskspec.bridge._emit`) and checks each piece of the document,
as it reads it, against what the writer writes for the value read there:

- every key line must start with the very head the writer's plan writes
  next (indentation, ``- `` and key), so field order, omission and layout
  are the writer's;
- every scalar is read into a candidate value, whose text as the writer
  writes it (:func:`taskspec.bridge._scalar.value_text`, or ``key_text``
  for a map key) must be exactly the bytes that follow, so style, quoting,
  escapes and indentation are the writer's;
- every choice the writer makes from the value (omitting an empty field,
  ``{}``, ``[]``, ``null``, map-key order) is checked against the value read.

A document that passes is therefore, piece for piece, ``marshal_yaml`` of the
spec read, and because ``parse_task_spec(marshal_yaml(s)) == s`` holds for
every spec (the round trip the test suite pins on the whole vector corpus),
that spec is exactly what the full decoder would return. Anything else (a
comment after the first key, quoting the writer would not use, an alias,
CRLF) returns ``None`` and takes the full decoder. How a candidate is read
needs no such care: a wrong candidate fails its check and the document
takes the full decoder.

Full-line comments *before* the first key are the one exception: editors
put a modeline there (``# yaml-language-server: $schema=...``), and a
comment carries no data. They are skipped only when every character is
printable ASCII or a tab, so that no other line break (NEL, LS, PS) and no
character YAML forbids can hide in one; the rest of the document must then
be canonical, as above.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from taskspec import _limits
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec.bridge import _emit
from taskspec.bridge._breaks import LINE_ENDS
from taskspec.bridge._keyorder import in_order
from taskspec.bridge._scalar import is_literal_value, is_plain_value, key_text, value_text
from taskspec.v1 import taskspec_pb2

__all__ = ["parse_canonical"]

#: The node budget, read at each call. It is a plain module global rather
#: than the Final constant itself so that tests can lower it, as they do the
#: full decoder's, also where this module is compiled (which inlines Finals).
MAX_NODES: int = _limits.MAX_NODES


class _NotCanonicalError(Exception):
    """Internal signal: give up and let the full decoder read the document."""


# --- candidates ----------------------------------------------------------------------
#
# Each function reads the value that a scalar *would* have if the writer had
# written it. None of them has to be right for non-canonical input: the
# caller checks the writer's text of the candidate against the document.

_ESCAPES: Final = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES: Final = {"x": 2, "u": 4, "U": 8}
_ESCAPE: Final = re.compile(r"\\(?:([xuU])([0-9A-Fa-f]+)|(.))", re.S)
#: Most escapes in one double-quoted scalar that the fast path unescapes.
_MAX_ESCAPES: Final = 256
#: The leading comment lines the fast path may skip: printable ASCII or
#: tabs. Matched as one run, possessively: a document of 16 MiB of comment
#: lines costs one regular expression match, not a loop per line.
_SKIPPABLE_COMMENTS: Final = re.compile(r"(?:#[\t\x20-\x7e]*+\n)*+")
#: The line breaks after which the writer indents a continuation (LF, LS, PS).
_CONTINUED: Final = ("\n", "\u2028", "\u2029")
#: Every line break YAML knows.
_BREAKS: Final = LINE_ENDS
#: First characters after which the writer adds an indentation indicator.
_NO_SHORTCUT_FIRST: Final = " \t" + _BREAKS


def _at(text: str, pos: int, s: str) -> bool:
    """Whether *s* is in *text* at *pos*: ``text.startswith(s, pos)``.

    Spelled as a slice and a comparison, which the compiled build runs
    directly, where ``startswith`` with a position goes through a generic
    method call (with an argument tuple) at about twice the cost.
    """
    return text[pos : pos + len(s)] == s


def _eol(text: str, pos: int) -> int:
    """Where the line that *pos* is on ends: the index of its line break."""
    eol = text.find("\n", pos)
    if eol < 0:
        raise _NotCanonicalError  # past the document's final line break
    return eol


#: For each indentation, the search for the line break that ends a literal
#: block indented by it: one scan of the block in C, not a step per line.
_BLOCK_ENDS: dict[str, Callable[[str, int], re.Match[str] | None]] = {}


def _block_end(pad: str) -> Callable[[str, int], re.Match[str] | None]:
    search = _BLOCK_ENDS.get(pad)
    if search is None:
        search = _BLOCK_ENDS[pad] = re.compile("\n(?!\n|" + re.escape(pad) + ")").search
    return search


def _unescape(match: re.Match[str]) -> str:
    kind, digits, single = match.groups()
    if kind:
        width = _HEX_ESCAPES[kind]
        if len(digits) < width:
            raise _NotCanonicalError
        code = int(digits[:width], 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise _NotCanonicalError  # not a character: the full decoder reports it
        return chr(code) + digits[width:]
    out = _ESCAPES.get(single)
    if out is None:
        raise _NotCanonicalError
    return out


def _quoted(inner: str, quote: str) -> str:
    """The candidate of a quoted scalar's text between its quotes, on one line.

    Each escape costs a call back into Python here, and libyaml's own
    unescaping in C costs a small fraction of that: past
    :data:`_MAX_ESCAPES` escapes in one scalar (a writer escapes only
    characters that cannot be shown, so real documents hold a few), the
    full decoder reads the document instead.
    """
    if quote == '"':
        if "\\" not in inner:
            return inner
        if inner.count("\\") > _MAX_ESCAPES:
            raise _NotCanonicalError
        return _ESCAPE.sub(_unescape, inner)
    return inner.replace("''", "'")


def _unpad(text: str, pad: str) -> str:
    """*text* without the indentation the writer puts after each line break in it.

    That is after an LF in a literal block, and after an LS or PS, which
    yaml.v3 breaks the line at in single-quoted and literal scalars alike.
    """
    for brk in _CONTINUED:
        if brk in text:
            text = text.replace(brk + pad, brk)
    return text


def _value(text: str, pos: int, pad: str) -> str:
    """The candidate of the value written from *pos* on: ``' ' scalar``, up to its end.

    *pad* is the indentation of the value's continuation lines, which is
    where a literal block's content lines start.
    """
    if text[pos] != " ":
        raise _NotCanonicalError
    first = text[pos + 1]
    eol = _eol(text, pos)  # the document ends with a line break
    if first in "\"'":
        if eol - pos < 3 or text[eol - 1] != first:
            raise _NotCanonicalError
        return _quoted(_unpad(text[pos + 2 : eol - 1], pad), first)
    if first != "|":
        return text[pos + 1 : eol]
    # A literal block: its lines are the empty ones and those indented by pad,
    # up to the first line break followed by neither (or by the text's end).
    start = eol + 1
    match = _block_end(pad)(text, eol)
    if match is None:  # (cannot happen: the text ends with a line break)
        raise _NotCanonicalError
    end = match.end()
    if _at(text, start, pad):
        start += len(pad)  # the first line's indentation
    body = _unpad(text[start:end], pad)
    # Without a final line break ("|-") the writer ends the last line itself.
    return body[:-1] if text[eol - 1] == "-" else body


def _proved(text: str, pos: int, s: str, pad: str, indicator: str) -> int:
    """Where the value written from *pos* ends, if it is the writer's text of *s*.

    A plain candidate (the rest of its line, as :func:`_value` reads it) is
    the writer's text exactly when the writer writes *s* plain, which saves
    writing it again; any other is compared with what the writer writes.
    """
    end = pos + len(s) + 2
    if text[pos + 1] not in "\"'|" and text[end - 1 : end] == "\n" and is_plain_value(s):
        return end
    written = value_text(s, pad, indicator)
    if not _at(text, pos, written):
        raise _NotCanonicalError
    return pos + len(written)


def _string(text: str, pos: int, pad: str) -> tuple[str, int]:
    """The string value written from *pos* on, and where it ends if that is proved by its shape.

    A literal block in the writer's most common form (``|-``, the text
    starts with neither a space, a tab nor a line break, and holds no LS or
    PS) is proved without writing it again: the writer indents every line
    of such a text by *pad* and leaves its empty lines empty
    (:func:`taskspec.bridge._scalar.value_text`), so its text is the
    block's exactly when the block has no line of *pad* alone and the
    writer writes the value as a literal block at all. That takes a few
    scans of the block in C, where writing it again takes several more and
    a copy. The caller checks the style (:func:`is_literal_value`); the end
    is -1 for every other value, which :func:`_proved` proves.
    """
    if text[pos + 1] == "|" and _at(text, pos, " |-\n"):
        start = pos + 3  # the header's line break
        match = _block_end(pad)(text, start)
        if match is not None and _at(text, start + 1, pad):
            end = match.end()
            s = _unpad(text[start + 1 + len(pad) : end - 1], pad)
            if (
                s
                and s[0] not in _NO_SHORTCUT_FIRST
                and s[-1] not in _BREAKS
                and text.find("\n" + pad + "\n", start, end) < 0
                and (s.isascii() or ("\u2028" not in s and "\u2029" not in s))
            ):
                return s, end
    return _value(text, pos, pad), -1


def _proved_string(text: str, pos: int, s: str, end: int, *, pad: str, indicator: str) -> int:
    """Where the string *s* read by :func:`_string` ends, once proved to be the writer's."""
    if end < 0:
        return _proved(text, pos, s, pad, indicator)
    if not is_literal_value(s):
        raise _NotCanonicalError
    return end


def _simple_key(line: str) -> str:
    """A map entry's candidate key, from its ``key: number`` line."""
    key, sep, _ = line.rpartition(": ")
    if not sep or not key:
        raise _NotCanonicalError
    first = key[0]
    if first in "\"'":
        if len(key) < 2 or key[-1] != first:
            raise _NotCanonicalError
        key = _quoted(key[1:-1], first)
    return key


def _integer(text: str, pos: int) -> tuple[int, int]:
    """The int written from *pos* to the end of its line (``f" {n}"``), and that line's end.

    Only the writer's own text of an int is one: no sign but ``-``, no
    leading zero, no underscore, ASCII digits.
    """
    eol = _eol(text, pos)
    digits = text[pos + 1 : eol]
    n = int(digits)  # a ValueError takes the full decoder, like any other error
    if text[pos] != " " or str(n) != digits:
        raise _NotCanonicalError
    return n, eol + 1


# --- reader plans ----------------------------------------------------------------------
#
# One per writer plan. ``read`` gets the position right after the field's
# head (the key and its ':') and returns the position after the field.


class _Field:
    __slots__ = ("first_head", "head", "name", "omitempty")

    def __init__(self, plan: _emit.FieldPlan) -> None:
        self.name = plan.name
        self.omitempty = plan.omitempty
        self.head = plan.head
        self.first_head = plan.first_head

    def read(self, text: str, pos: int, msg: Any) -> int:  # pragma: no cover
        raise NotImplementedError

    def block(self, text: str, pos: int, empty: str) -> int:
        """Where a collection's lines start after its head; -1 if it is written *empty*.

        The writer writes a collection with no element as *empty* (``[]`` or
        ``{}``) unless the field is omitempty
        (:meth:`~taskspec.bridge._emit.FieldPlan.write_empty`), and one with
        elements on the lines after its head.
        """
        if text[pos] == "\n":  # (a head is never last: the text ends with "\n")
            return pos + 1
        if not _at(text, pos, empty) or self.omitempty:
            raise _NotCanonicalError
        return -1


class _String(_Field):
    __slots__ = ("indicator", "pad")

    def __init__(self, plan: _emit.StringPlan) -> None:
        super().__init__(plan)
        self.pad = plan.pad
        self.indicator = plan.indicator

    def read(self, text: str, pos: int, msg: Any) -> int:
        s, end = _string(text, pos, self.pad)
        if not s and self.omitempty:
            raise _NotCanonicalError  # the writer omits it
        # Set before the proof, which cannot be undone anyway (a failed one
        # drops the message): protobuf keeps the UTF-8 form of a text that is
        # not ASCII with the str, and the proof's own encoding then reuses it.
        setattr(msg, self.name, s)
        return _proved_string(text, pos, s, end, pad=self.pad, indicator=self.indicator)


class _Int(_Field):
    __slots__ = ()

    def read(self, text: str, pos: int, msg: Any) -> int:
        n, end = _integer(text, pos)
        if not n and self.omitempty:
            raise _NotCanonicalError
        setattr(msg, self.name, n)
        return end


class _Enum(_Field):
    __slots__ = ("numbers", "zero")

    def __init__(self, plan: _emit.EnumPlan) -> None:
        super().__init__(plan)
        # The writer's text of each value, back to its number.
        self.numbers = {written: n for n, written in plan.texts.items()}
        self.zero = plan.zero

    def read(self, text: str, pos: int, msg: Any) -> int:
        eol = _eol(text, pos) + 1
        n = self.numbers.get(text[pos:eol])
        if n is None or (self.omitempty and n in self.zero):
            raise _NotCanonicalError
        setattr(msg, self.name, n)
        return eol


class _Message(_Field):
    __slots__ = ("empty", "mapping", "pointer")

    def __init__(self, plan: _emit.MessagePlan) -> None:
        super().__init__(plan)
        self.pointer = plan.pointer
        self.mapping = _mapping(plan.mapping)
        # Whether the writer writes nothing for an empty message.
        self.empty = all(f.omitempty for f in plan.mapping.fields)

    def read(self, text: str, pos: int, msg: Any) -> int:
        if text[pos] == "\n":  # (a head is never last: the text ends with "\n")
            value = getattr(msg, self.name)
            end = self.mapping.read(text, pos + 1, value)
            if end == pos + 1:
                raise _NotCanonicalError  # the writer writes {} instead
        elif _at(text, pos, " {}\n") and self.empty:
            value = getattr(msg, self.name)
            end = pos + 4
        elif _at(text, pos, " null\n") and self.pointer and not self.omitempty:
            return pos + 6
        else:
            raise _NotCanonicalError
        value.SetInParent()
        if self.omitempty and not self.pointer and not value.ByteSize():
            raise _NotCanonicalError  # the writer omits an empty struct value
        return end


class _StringList(_Field):
    __slots__ = ("dash", "indicator", "pad")

    def __init__(self, plan: _emit.StringListPlan) -> None:
        super().__init__(plan)
        self.dash = plan.dash
        self.pad = plan.pad
        self.indicator = plan.indicator

    def read(self, text: str, pos: int, msg: Any) -> int:
        start = self.block(text, pos, " []\n")
        if start < 0:
            return pos + len(" []\n")
        pos = start
        dash, pad, indicator = self.dash, self.pad, self.indicator
        items: list[str] = []
        while _at(text, pos, dash):
            pos += len(dash)
            s, end = _string(text, pos, pad)
            pos = _proved_string(text, pos, s, end, pad=pad, indicator=indicator)
            items.append(s)
        if not items:
            raise _NotCanonicalError
        getattr(msg, self.name).extend(items)
        return pos


class _MessageList(_Field):
    __slots__ = ("dash", "empty", "empty_item", "mapping")

    def __init__(self, plan: _emit.MessageListPlan) -> None:
        super().__init__(plan)
        self.mapping = _mapping(plan.mapping)
        self.empty_item = plan.empty_item
        self.dash = plan.dash
        self.empty = all(f.omitempty for f in plan.mapping.fields)

    def read(self, text: str, pos: int, msg: Any) -> int:
        start = self.block(text, pos, " []\n")
        if start < 0:
            return pos + len(" []\n")
        pos = start
        target = getattr(msg, self.name)
        dash, mapping, empty_item = self.dash, self.mapping, self.empty_item
        count = 0
        while _at(text, pos, dash):
            item = target.add()
            if _at(text, pos, empty_item):
                if not self.empty:
                    raise _NotCanonicalError
                pos += len(empty_item)
            else:
                end = mapping.read(text, pos, item)
                if end == pos:
                    raise _NotCanonicalError
                pos = end
            count += 1
        if not count:
            raise _NotCanonicalError
        return pos


class _IntMap(_Field):
    __slots__ = ("indicator", "key_pad", "pad")

    def __init__(self, plan: _emit.IntMapPlan) -> None:
        super().__init__(plan)
        self.pad = plan.pad
        self.key_pad = plan.key_pad
        self.indicator = plan.indicator

    def read(self, text: str, pos: int, msg: Any) -> int:
        start = self.block(text, pos, " {}\n")
        if start < 0:
            return pos + len(" {}\n")
        pos = start
        pad, key_pad, indicator = self.pad, self.key_pad, self.indicator
        target = getattr(msg, self.name)
        keys: list[str] = []
        while _at(text, pos, pad) and text[pos + len(pad)] != " ":
            start = pos + len(pad)
            if _at(text, start, "? "):
                key = _value(text, start + 1, key_pad)
            else:
                key = _simple_key(text[start : _eol(text, start)])
            written = key_text(key, pad, key_pad, indicator)
            if not _at(text, start, written) or key in target:
                raise _NotCanonicalError
            target[key], pos = _integer(text, start + len(written))
            keys.append(key)
        if not keys or not in_order(keys):
            raise _NotCanonicalError  # empty, or not in the writer's key order
        return pos


class _Mapping:
    """Reads the fields of a writer's :class:`~taskspec.bridge._emit.MappingPlan`."""

    __slots__ = ("fields",)

    def __init__(self) -> None:
        self.fields: tuple[_Field, ...] = ()

    def read(self, text: str, pos: int, msg: Any) -> int:
        """Read the mapping at *pos* into *msg*; *pos* again if no field is written.

        A field whose head is not next is one the writer omits, which it does
        only for an omitempty field left at its zero value.
        """
        first = True
        for field in self.fields:
            head = field.first_head if first else field.head
            if _at(text, pos, head):
                pos = field.read(text, pos + len(head), msg)
                first = False
            elif not field.omitempty:
                raise _NotCanonicalError
        return pos


_READERS: Final[dict[type[_emit.FieldPlan], Any]] = {
    _emit.StringPlan: _String,
    _emit.IntPlan: _Int,
    _emit.EnumPlan: _Enum,
    _emit.MessagePlan: _Message,
    _emit.StringListPlan: _StringList,
    _emit.MessageListPlan: _MessageList,
    _emit.IntMapPlan: _IntMap,
}
_MAPPINGS: dict[int, _Mapping] = {}


def _mapping(plan: _emit.MappingPlan) -> _Mapping:
    """The reader of a writer's mapping plan, one per plan (plans are shared too)."""
    reader = _MAPPINGS.get(id(plan))
    if reader is None:
        reader = _MAPPINGS[id(plan)] = _Mapping()
        reader.fields = tuple(_READERS[type(f)](f) for f in plan.fields)
    return reader


_DOCUMENT: Final = _mapping(_emit.DOCUMENT)


def _leading_comments(text: str) -> int:
    """Where the document starts after its leading comment lines; -1 if one cannot be skipped."""
    match = _SKIPPABLE_COMMENTS.match(text)
    start = match.end() if match is not None else 0
    return -1 if _at(text, start, "#") else start  # a comment line that cannot be skipped


def parse_canonical(data: bytes | str) -> taskspec_pb2.TaskSpec | None:
    """The spec *data* is the canonical form of, or None if it is not canonical."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8"))
    except (UnicodeError, AttributeError):
        return None
    if size > MAX_DOCUMENT_BYTES or not text.endswith("\n") or "\r" in text:
        return None
    start = _leading_comments(text)
    if start < 0:
        return None
    # A canonical line holds at most two nodes; past the budget the full
    # decoder counts them exactly and rejects the document. (The lines are
    # counted only where there can be that many: a scan of the whole text.)
    lines = len(text) - start
    if 2 * (lines + 1) + 1 > MAX_NODES and 2 * (text.count("\n", start) + 1) + 1 > MAX_NODES:
        return None
    spec = taskspec_pb2.TaskSpec()
    try:
        end = _DOCUMENT.read(text, start, spec)
    except Exception:
        # _NotCanonicalError, or anything a hostile document provokes
        # (a protobuf range error, an over-long number, reading past the
        # end): whatever it is, the full decoder reads the document and
        # reports it properly.
        return None
    if end == start or end != len(text):
        return None
    return spec
