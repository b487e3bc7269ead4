"""Where a JSON text stops: the depth limit, and json's errors in the catalogue's words.

A leaf of the JSON format (:mod:`taskspec._json`).
"""

from __future__ import annotations

import re
from typing import Final

from taskspec._codes import LIMIT
from taskspec._errors import DecodeError, Violation
from taskspec._forms_gen import (
    MSG_JSON_SYNTAX_ARRAY_END,
    MSG_JSON_SYNTAX_COLON,
    MSG_JSON_SYNTAX_CONTROL,
    MSG_JSON_SYNTAX_ESCAPE,
    MSG_JSON_SYNTAX_OBJECT_END,
    MSG_JSON_SYNTAX_PROPERTY_NAME,
    MSG_JSON_SYNTAX_STOPPED,
    MSG_JSON_SYNTAX_STRING_NOT_CLOSED,
    MSG_JSON_SYNTAX_TEXT_AFTER_DOCUMENT,
    MSG_JSON_SYNTAX_VALUE,
    MSG_LIMIT_DEPTH,
)
from taskspec._limits import MAX_DEPTH
from taskspec._words import render

__all__ = ["json_message", "json_stop", "too_deep_at", "too_deep_error"]


#: A JSON string, a quote that starts no string (one that a control
#: character or the end of the text breaks off), or a bracket outside a string.
_JSON_TOKEN: Final = re.compile(r'"(?:[^"\\\x00-\x1f]|\\[^\x00-\x1f])*"|"|[\[\]{}]')


def too_deep_at(text: str) -> int | None:
    """The offset of the bracket that nests *text* past MAX_DEPTH, or None.

    The contract's depth limit holds in every format. Finding it before
    json.loads reads the text also keeps the reader out of deep recursion,
    where Python's own limit would refuse at a depth of its choosing.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        c = match.group()
        if c == '"':  # the reader stops in this string, before any bracket after it
            return None
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif c in "]}":
            depth -= 1
    return None


def too_deep_error(text: str, at: int) -> DecodeError:
    """The refusal of *text* at offset *at*, the bracket that nests it past MAX_DEPTH."""
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    message = render(MSG_LIMIT_DEPTH, n=MAX_DEPTH)
    return DecodeError([Violation("", message, line, column, code=LIMIT)])


#: Python's json messages, by their start, as the catalogue words them.
_JSON_MESSAGES: Final = (
    ("Expecting value", MSG_JSON_SYNTAX_VALUE),
    ("Expecting property name", MSG_JSON_SYNTAX_PROPERTY_NAME),
    ("Expecting ':'", MSG_JSON_SYNTAX_COLON),
    ("Unterminated string", MSG_JSON_SYNTAX_STRING_NOT_CLOSED),
    ("Invalid control character", MSG_JSON_SYNTAX_CONTROL),
    ("Invalid \\", MSG_JSON_SYNTAX_ESCAPE),
    ("Extra data", MSG_JSON_SYNTAX_TEXT_AFTER_DOCUMENT),
    ("Illegal trailing comma before end of object", MSG_JSON_SYNTAX_PROPERTY_NAME),
    ("Illegal trailing comma before end of array", MSG_JSON_SYNTAX_VALUE),
    # A second byte order mark: no value can start with one.
    ("Unexpected UTF-8 BOM", MSG_JSON_SYNTAX_VALUE),
)


def json_stop(msg: str, text: str, pos: int) -> int:
    """The offset where the contract places Python's json problem *msg*, reported at *pos*.

    Python 3.13 reports a trailing comma at the comma; earlier versions (and
    the Go library) at the closer after it, where the text stops being JSON.
    The contract's position is the closer, whatever Python runs it. A
    ``\\uXXXX`` escape without its four hex digits is reported at its ``u``;
    the contract's position is the escape's backslash.
    """
    if msg.startswith("Invalid \\uXXXX"):
        return pos - 1
    if msg.startswith("Illegal trailing comma"):
        after = pos + 1
        while after < len(text) and text[after] in " \t\r\n":
            after += 1
        return after
    return pos


def json_message(msg: str, text: str, pos: int) -> str:
    """The catalogue's message for Python's json message *msg*, met at offset *pos* of *text*.

    A missing comma is worded by what it is missing in: the innermost
    array or object open at *pos*.
    """
    if msg.startswith("Expecting ',' delimiter"):
        in_array = _open_at(text, pos) == "["
        return render(MSG_JSON_SYNTAX_ARRAY_END if in_array else MSG_JSON_SYNTAX_OBJECT_END)
    for start, form in _JSON_MESSAGES:
        if msg.startswith(start):
            return render(form)
    return render(MSG_JSON_SYNTAX_STOPPED)


def _open_at(text: str, pos: int) -> str:
    """The innermost bracket (``[`` or ``{``) still open at offset *pos* of *text*, or ""."""
    stack: list[str] = []
    for match in _JSON_TOKEN.finditer(text, 0, pos):
        c = match.group()
        if c in "[{":
            stack.append(c)
        elif c in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else ""
