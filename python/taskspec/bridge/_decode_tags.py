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

from taskspec._codes import UNSUPPORTED
from taskspec._errors import DecodeError, Violation
from taskspec.bridge._decode_load import mark_position, yaml_error
from taskspec.bridge._decode_msg import q

__all__ = ["check_tag_commas", "tag_then_comma"]

#: A '!' whose tag characters run into a comma: the only text on which the
#: readers can read a tag differently and both succeed. Most documents have
#: none, and are not walked for tags at all.
_TAG_THEN_COMMA: Final = re.compile(r"![-\w;/?:@&=+$.%!~*'()]*,", re.ASCII)
_ANCHOR_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
_TAG_CHARS: Final = _ANCHOR_CHARS | frozenset(";/?:@&=+$.%!~*'()")
#: Spaces and line breaks: YAML 1.1 also breaks lines at NEL, LS and PS.
_BLANKS: Final = frozenset(" \t\r\n\x85\u2028\u2029")


def tag_then_comma(tag: str) -> str:
    """The refusal of *tag*, as written, followed by ',' with no space."""
    return (
        f"the tag {q(tag)} is followed by ',' with no space: YAML readers disagree on where"
        " it ends; put a space after the tag"
    )


def _tag_span(source: str, at: int) -> tuple[int, int] | None:
    """The tag among the properties that start at *at*, as libyaml ends it.

    The properties are an anchor and a tag, in either order, apart by
    spaces, line breaks or a comment (``&a !t``, ``!t &a``). None when they
    hold no tag, or a verbatim one.
    """
    if source.startswith("&", at):  # one anchor, then the tag
        at += 1
        while at < len(source) and source[at] in _ANCHOR_CHARS:
            at += 1
        if at >= len(source) or source[at] not in _BLANKS:
            return None  # the anchor is all: ':' or ',' follows it
        while at < len(source) and (source[at] in _BLANKS or source[at] == "#"):
            if source[at] == "#":
                while at < len(source) and source[at] not in "\r\n\x85\u2028\u2029":
                    at += 1
                continue
            at += 1
    if not source.startswith("!", at) or source.startswith("<", at + 1):
        return None
    end = at + 1
    while end < len(source) and source[end] in _TAG_CHARS:
        end += 1
    return at, end


def check_tag_commas(data: bytes, source: str) -> None:
    """Refuse the first tag followed by ',' with no space, reading the first document's events.

    *source* is the text of *data* that libyaml's marks index (without a
    leading byte order mark). It runs before the document is composed, and
    stops at the first such tag: past it, the readers no longer read the
    same document, so what libyaml finds there (a syntax error, say) is not
    what yaml.v3, and so the Go library, finds. A syntax error met before it
    is raised as the composer would raise it. Each node starts at its
    properties, so its tag is read from there.
    """
    if _TAG_THEN_COMMA.search(source) is None:
        return
    parser = CParser(data)
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is ScalarEvent or kind is SequenceStartEvent or kind is MappingStartEvent:
                if event.tag is None:
                    continue
                mark = event.start_mark
                span = _tag_span(source, mark.index)
                if span is not None and source.startswith(",", span[1]):
                    message = tag_then_comma(source[span[0] : span[1]])
                    line, column = mark_position(mark)
                    raise DecodeError([Violation("", message, line, column, code=UNSUPPORTED)])
            elif event is None or kind is StreamEndEvent or kind is DocumentEndEvent:
                return
    except yaml.YAMLError as err:
        raise yaml_error(err, source) from None
    finally:
        parser.dispose()
