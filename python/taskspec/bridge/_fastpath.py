"""A fast path for documents that are already in canonical form.

Most sidecars were written by ``MarshalYAML`` (Go's or this package's), so
they are in the one canonical layout: block mappings indented by four
spaces, one key per line, block sequences, literal blocks for multi-line
strings. Composing such a document through libyaml costs far more in Python
object churn than the document is worth, so this module reads the
canonical layout directly.

It is exact by construction, not by trust: the guess is accepted only when
re-marshalling it reproduces the input byte for byte. Because
``parse_task_spec(marshal_yaml(s)) == s`` holds for every spec (the round
trip the test suite pins on the whole vector corpus), a spec whose canonical
bytes *are* the input is exactly what the full decoder would return. Any
other document, and anything unusual in this one (quoting with escapes, a
comment after the first key, an alias, CRLF), returns ``None`` and takes the
full decoder.

Full-line comments *before* the first key are the one exception: editors
put a modeline there (``# yaml-language-server: $schema=...``), and a
comment carries no data. They are skipped only when every character is
printable ASCII or a tab, so that no other line break (NEL, LS, PS) and no
character YAML forbids can hide in one; the rest of the document must then
be canonical byte for byte, as above.
"""

from __future__ import annotations

import re
from typing import Any, Final

from taskspec import _limits
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec.bridge import _emit
from taskspec.bridge._layout import (
    K_ENUM,
    K_INT,
    K_INT_MAP,
    K_MESSAGE,
    K_MESSAGE_LIST,
    K_STRING,
    K_STRING_LIST,
    TASK_SPEC,
    MessageInfo,
)
from taskspec.v1 import taskspec_pb2

__all__ = ["parse_canonical"]

_INDENT: Final = 4
_BLOCK_CHOMP: Final = {"|-": "strip", "|": "clip", "|+": "keep"}
_UNSAFE_SCALAR_START: Final = frozenset("'\"|>&*!%@`#{[")


_CODE_STRING: Final = 0
_CODE_ENUM: Final = 1
_CODE_INT: Final = 2
_CODE_MESSAGE: Final = 3
_CODE_STRING_LIST: Final = 4
_CODE_MESSAGE_LIST: Final = 5
_CODE_INT_MAP: Final = 6
_CODES: Final = {
    K_STRING: _CODE_STRING,
    K_ENUM: _CODE_ENUM,
    K_INT: _CODE_INT,
    K_MESSAGE: _CODE_MESSAGE,
    K_STRING_LIST: _CODE_STRING_LIST,
    K_MESSAGE_LIST: _CODE_MESSAGE_LIST,
    K_INT_MAP: _CODE_INT_MAP,
}
_TABLES: dict[str, dict[str, tuple[str, int, Any]]] = {}
_STOP: Final = frozenset({"", " ", "-"})

#: The node budget, read at each call. It is a plain module global rather
#: than the Final constant itself so that tests can lower it, as they do the
#: full decoder's, also where this module is compiled (which inlines Finals).
MAX_NODES: int = _limits.MAX_NODES


def _table(info: MessageInfo) -> dict[str, tuple[str, int, Any]]:
    """Per message: YAML key -> (field name, kind code, enum table or sub-message info).

    Flat tuples and small ints keep the per-line work of the reader to a
    few dictionary and tuple operations.
    """
    table = _TABLES.get(info.full_name)
    if table is None:
        table = {}
        for fi in info.fields:
            extra: Any = fi.enum.from_string if fi.enum is not None else fi.message
            table[fi.name] = (fi.name, _CODES[fi.kind], extra)
        _TABLES[info.full_name] = table
    return table


class _NotCanonicalError(Exception):
    """Internal signal: give up and let the full decoder read the document."""


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
#: A leading comment line the fast path may skip: printable ASCII or tabs.
_SKIPPABLE_COMMENT: Final = re.compile(r"#[\t\x20-\x7e]*")
_DOUBLE_QUOTED: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE: Final = re.compile(r"\\(?:([xuU])([0-9A-Fa-f]+)|(.))")


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


def _scalar(text: str) -> str:
    """The string value of a single-line canonical scalar."""
    if not text:
        raise _NotCanonicalError
    first = text[0]
    if first == '"':
        match = _DOUBLE_QUOTED.fullmatch(text)
        if match is None:
            raise _NotCanonicalError
        inner = match.group(1)
        return _ESCAPE.sub(_unescape, inner) if "\\" in inner else inner
    if first == "'":
        if len(text) < 2 or text[-1] != "'":
            raise _NotCanonicalError
        return text[1:-1].replace("''", "'")
    if first in _UNSAFE_SCALAR_START:
        raise _NotCanonicalError
    return text


def _integer(text: str) -> int:
    digits = text[1:] if text[:1] == "-" else text
    if not digits.isdigit() or not digits.isascii():
        raise _NotCanonicalError
    return int(text)


class _Reader:
    __slots__ = ("i", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0

    def block_scalar(self, header: str, base: int) -> str:
        """A literal block whose ``|`` header sits on a line indented by *base*.

        The content indentation is the header's indicator added to *base*,
        or without one, the indentation of the first content line (yaml.v3
        uses +4 in mappings and +2 in sequences; the re-marshal check
        settles any doubt).
        """
        chomp = _BLOCK_CHOMP.get(header[:1] + header[2:] if header[1:2].isdigit() else header)
        if chomp is None:
            raise _NotCanonicalError
        if header[1:2].isdigit():
            indent = base + int(header[1])
        else:
            first = self.lines[self.i]
            indent = len(first) - len(first.lstrip(" "))
            if indent <= base:
                raise _NotCanonicalError
        lines = self.lines
        prefix = " " * indent
        out: list[str] = []
        while self.i < len(lines):
            line = lines[self.i]
            if line.startswith(prefix):
                out.append(line[indent:])
            elif line:
                break
            else:
                out.append("")
            self.i += 1
        # Trailing empty lines belong to the chomping, not the content.
        trailing = 0
        while out and out[-1] == "":
            out.pop()
            trailing += 1
        if not out:
            raise _NotCanonicalError
        text = "\n".join(out)
        if chomp == "clip":
            return text + "\n"
        if chomp == "keep":
            return text + "\n" * (trailing + 1)
        return text

    def mapping(self, msg: Any, info: MessageInfo, indent: int, first: str | None = None) -> None:
        """Read ``key: value`` lines at exactly *indent* into *msg*.

        *first* is the already-consumed first line of a mapping that starts
        on a sequence item's ``- `` line, with the dash blanked out.
        """
        lines = self.lines
        prefix = " " * indent
        table = _table(info)
        i = self.i
        while True:
            if first is not None:
                line, first = first, None
            else:
                line = lines[i]  # the final "" of the split stops every loop
                if not line.startswith(prefix) or line[indent : indent + 1] in _STOP:
                    break
                i += 1
            key, sep, value = line[indent:].partition(": ")
            entry = table.get(key if sep else key[:-1] if key.endswith(":") else "")
            if entry is None:
                raise _NotCanonicalError
            name, code, extra = entry
            if code <= _CODE_INT:
                if code == _CODE_INT:
                    setattr(msg, name, _integer(value))
                    continue
                if value[:1] == "|":
                    self.i = i
                    text = self.block_scalar(value, indent)
                    i = self.i
                else:
                    text = _scalar(value)
                if code == _CODE_ENUM:
                    number = extra.get(text)
                    if number is None:
                        raise _NotCanonicalError
                    setattr(msg, name, number)
                else:
                    setattr(msg, name, text)
                continue
            self.i = i
            if code == _CODE_MESSAGE:
                sub = getattr(msg, name)
                sub.SetInParent()
                if value != "{}":
                    if sep:
                        raise _NotCanonicalError
                    self.mapping(sub, extra, indent + _INDENT)
            elif code == _CODE_STRING_LIST:
                if value != "[]":
                    if sep:
                        raise _NotCanonicalError
                    getattr(msg, name).extend(self.string_items(indent + _INDENT))
            else:
                if sep:
                    raise _NotCanonicalError
                if code == _CODE_MESSAGE_LIST:
                    self.message_items(getattr(msg, name), extra, indent + _INDENT)
                else:
                    self.int_map(getattr(msg, name), indent + _INDENT)
            i = self.i
        self.i = i

    def string_items(self, indent: int) -> list[str]:
        lines = self.lines
        marker = " " * indent + "- "
        out: list[str] = []
        while lines[self.i].startswith(marker):
            value = lines[self.i][indent + 2 :]
            self.i += 1
            if value[:1] == "|":
                out.append(self.block_scalar(value, indent))
            else:
                out.append(_scalar(value))
        if not out:
            raise _NotCanonicalError
        return out

    def message_items(self, target: Any, info: MessageInfo, indent: int) -> None:
        lines = self.lines
        marker = " " * indent + "- "
        count = 0
        while self.i < len(lines) and lines[self.i].startswith(marker):
            line = lines[self.i]
            self.i += 1
            first = " " * (indent + 2) + line[indent + 2 :]
            self.mapping(target.add(), info, indent + 2, first)
            count += 1
        if not count:
            raise _NotCanonicalError

    def int_map(self, target: Any, indent: int) -> None:
        lines = self.lines
        prefix = " " * indent
        count = 0
        while self.i < len(lines):
            line = lines[self.i]
            if not line.startswith(prefix) or line[indent : indent + 1] in (" ", "-"):
                break
            key, sep, value = line[indent:].rpartition(": ")
            if not sep or not key:
                raise _NotCanonicalError
            key = _scalar(key)
            if key in target:
                raise _NotCanonicalError
            target[key] = _integer(value)
            self.i += 1
            count += 1
        if not count:
            raise _NotCanonicalError


def _leading_comments(text: str) -> int:
    """Where the document starts after its leading comment lines; -1 if one cannot be skipped."""
    start = 0
    while text.startswith("#", start):
        end = text.index("\n", start)  # the text ends with a line break
        if not _SKIPPABLE_COMMENT.fullmatch(text, start, end):
            return -1
        start = end + 1
    return start


def parse_canonical(data: bytes | str) -> taskspec_pb2.TaskSpec | None:
    """The spec *data* is the canonical form of, or None if it is not canonical."""
    try:
        raw = data if isinstance(data, bytes) else data.encode("utf-8")
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except (UnicodeError, AttributeError):
        return None
    if len(raw) > MAX_DOCUMENT_BYTES or not text.endswith("\n") or "\r" in text:
        return None
    start = _leading_comments(text)
    if start < 0:
        return None
    if start:
        # The comments are ASCII, so their length in characters is in bytes.
        text, raw = text[start:], raw[start:]
    lines = text.split("\n")
    if 2 * len(lines) + 1 > MAX_NODES:
        # A canonical line holds at most two nodes; past the budget the
        # full decoder counts them exactly and rejects the document.
        return None
    reader = _Reader(lines)
    spec = taskspec_pb2.TaskSpec()
    try:
        reader.mapping(spec, TASK_SPEC, 0)
    except Exception:
        # _NotCanonicalError, or anything a hostile document provokes
        # (a protobuf range error, an over-long number): whatever it is,
        # the full decoder reads the document and reports it properly.
        return None
    if reader.i != len(reader.lines) - 1:
        return None
    try:
        if _emit.marshal(spec) != raw:
            return None
    except Exception:  # anything unusual takes the full decoder
        return None
    return spec
