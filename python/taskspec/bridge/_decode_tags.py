"""Where a tag ends: the one place libyaml and yaml.v3 tokenize a tag differently.

A tag written ``!suffix`` or ``!handle!suffix`` ends, in libyaml, at the
first character outside YAML 1.1's URI characters (letters, digits and
``-_;/?:@&=+$.%!~*'()``). yaml.v3 also reads ``,``, ``[`` and ``]`` into
the tag. So:

- a tag running into ``[`` or ``]``, or into ``,`` outside ``[]`` and
  ``{}``, is a syntax error to libyaml, which this decoder reports as it
  is (the Go library reports it in the same words);
- a tag running into ``,`` inside ``[]`` or ``{}`` is read by both, and
  differently: libyaml ends the tag at the comma, so it tags an empty node
  (``[!!str, go]`` is ``["", "go"]``), while yaml.v3 reads ``!!str,`` as the
  tag of ``go`` (``[go]``). :func:`check_tag_commas` refuses it, as the Go
  library does, in the same words.

A verbatim tag (``!<...>``) may hold all three characters in both readers.

A tag may also hold the escape ``%00``, a NUL. libyaml hands a tag over
as a C string, which ends at the NUL (``!!str%00x`` is ``!!str``, and
``!%00`` the non-specific ``!``); yaml.v3 keeps the whole tag, which it
then does not know. :func:`check_events` refuses such a tag, as the Go
library does, in the same words.

The same pass over the events finds the other text the readers read
differently token by token: the escape ``\\/`` in a double-quoted scalar,
which libyaml reads as ``/`` and yaml.v3 (so the Go package) cannot read at
all. To the contract it is an escape that does not exist, a syntax error
where yaml.v3 meets it (TS016), so it stops the reading there, as it stops
yaml.v3, whatever the document would go on to say.
"""

from __future__ import annotations

import re
from typing import Any, Final

import yaml
from yaml._yaml import CParser
from yaml.events import (
    DocumentEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from taskspec._codes import BAD_ESCAPE, UNSUPPORTED
from taskspec._errors import DecodeError, Violation
from taskspec._forms_gen import (
    MSG_BAD_ESCAPE_UNKNOWN,
    REASON_UNSUPPORTED_TAG_NUL,
    REASON_UNSUPPORTED_TAG_THEN_COMMA,
)
from taskspec._words import render
from taskspec.bridge._breaks import LINE_ENDS
from taskspec.bridge._decode_load import char_position, mark_position, yaml_error
from taskspec.bridge._decode_msg import q
from taskspec.bridge._syntax import prompt_hint

__all__ = ["check_events", "tag_then_comma", "tag_with_nul"]

#: A '!' whose tag characters run into a comma: the only text on which the
#: readers can read a tag differently and both succeed. Most documents have
#: none, and are not walked for tags at all.
_TAG_THEN_COMMA: Final = re.compile(r"![-\w;/?:@&=+$.%!~*'()]*,", re.ASCII)
_ANCHOR_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
_TAG_CHARS: Final = _ANCHOR_CHARS | frozenset(";/?:@&=+$.%!~*'()")
#: Spaces and line breaks: YAML 1.1 also breaks lines at NEL, LS and PS.
_BLANKS: Final = frozenset(" \t" + LINE_ENDS)


def tag_then_comma(tag: str) -> str:
    """The refusal of *tag*, as written, followed by ',' with no space."""
    return render(REASON_UNSUPPORTED_TAG_THEN_COMMA, tag=q(tag))


def tag_with_nul(tag: str) -> str:
    """The refusal of *tag*, as written, which holds the escape ``%00``."""
    return render(REASON_UNSUPPORTED_TAG_NUL, tag=q(tag))


def _tag_start(source: str, at: int) -> int:
    """The offset of the tag among the properties that start at *at*, or -1.

    The properties are an anchor and a tag, in either order, apart by
    spaces, line breaks or a comment (``&a !t``, ``!t &a``).
    """
    if source.startswith("&", at):  # one anchor, then the tag
        at += 1
        while at < len(source) and source[at] in _ANCHOR_CHARS:
            at += 1
        if at >= len(source) or source[at] not in _BLANKS:
            return -1  # the anchor is all: ':' or ',' follows it
        while at < len(source) and (source[at] in _BLANKS or source[at] == "#"):
            if source[at] == "#":
                while at < len(source) and source[at] not in LINE_ENDS:
                    at += 1
                continue
            at += 1
    return at if source.startswith("!", at) else -1


def _tag_span(source: str, at: int) -> tuple[int, int] | None:
    """The tag among the properties that start at *at*, as libyaml ends it.

    None when they hold no tag, or a verbatim one.
    """
    at = _tag_start(source, at)
    if at < 0 or source.startswith("<", at + 1):
        return None
    end = at + 1
    while end < len(source) and source[end] in _TAG_CHARS:
        end += 1
    return at, end


def _tag_with_nul(source: str, at: int) -> str | None:
    """The tag among the properties that start at *at*, as written, if it holds ``%00``.

    A verbatim tag (``!<...>``) runs to its ``>``; any other to the end of
    its characters. A ``%`` starts an escape of two hex digits, so
    ``%2500`` is no NUL.
    """
    start = _tag_start(source, at)
    if start < 0:
        return None
    end = start + 1
    if source.startswith("<", end):
        close = source.find(">", end)
        end = len(source) if close < 0 else close + 1
    else:
        while end < len(source) and source[end] in _TAG_CHARS:
            end += 1
    tag = source[start:end]
    i = tag.find("%")
    while i >= 0:
        if tag.startswith("00", i + 1):
            return tag
        i = tag.find("%", i + 3)
    return None


def check_events(data: bytes, source: str) -> None:
    """Refuse the first tag followed by ',' with no space, or escape ``\\/``, in the events.

    *source* is the text of *data* that libyaml's marks index (without a
    leading byte order mark). It runs before the document is composed, and
    stops at the first such text: past it, the readers no longer read the
    same document, so what libyaml finds there (a syntax error, say) is not
    what yaml.v3, and so the Go library, finds. A syntax error met before it
    is raised as the composer would raise it. Each node starts at its
    properties, so its tag is read from there.
    """
    commas = _TAG_THEN_COMMA.search(source) is not None
    nuls = "%00" in source
    slashes = "\\/" in source
    if not commas and not nuls and not slashes:
        return
    parser = CParser(data)
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is ScalarEvent or kind is SequenceStartEvent or kind is MappingStartEvent:
                mark = event.start_mark
                if commas and event.tag is not None:
                    span = _tag_span(source, mark.index)
                    if span is not None and source.startswith(",", span[1]):
                        message = tag_then_comma(source[span[0] : span[1]])
                        line, column = mark_position(mark)
                        raise DecodeError([Violation("", message, line, column, code=UNSUPPORTED)])
                if nuls:
                    tag = _tag_with_nul(source, mark.index)
                    if tag is not None:
                        line, column = mark_position(mark)
                        message = tag_with_nul(tag)
                        raise DecodeError([Violation("", message, line, column, code=UNSUPPORTED)])
                if slashes and kind is ScalarEvent and event.style == '"':
                    at = _slash_escape(source, mark.index, event.end_mark.index)
                    if at >= 0:
                        raise _bad_escape(source, at)
            elif event is None or kind is StreamEndEvent or kind is DocumentEndEvent:
                return
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None


def _slash_escape(source: str, start: int, end: int) -> int:
    """The offset of the first escape ``\\/`` in the double-quoted scalar at *start*..*end*, or -1.

    The scalar's text starts at its opening quote, after any properties
    (anchor and tag hold no quote).
    """
    at = source.find('"', start, end)
    while at != -1:
        at = source.find("\\", at + 1, end)
        if at == -1 or source.startswith("/", at + 1):
            return at
        at += 1  # past the escaped character
    return -1


def _bad_escape(source: str, at: int) -> DecodeError:
    """The syntax problem of the escape ``\\/`` at offset *at*, where yaml.v3 stops."""
    line, column = char_position(source, at)
    message = render(MSG_BAD_ESCAPE_UNKNOWN)
    hint = prompt_hint(BAD_ESCAPE, message, source, line)
    return DecodeError([Violation("", message, line, column, hint, BAD_ESCAPE)])
