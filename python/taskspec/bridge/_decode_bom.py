"""Where a raw byte order mark may stand: only where libyaml and yaml.v3 read it alike.

:mod:`taskspec.bridge._decode` runs both checks when the text holds a mark
past its start.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Final

import yaml
from yaml._yaml import CParser

from taskspec._forms_gen import (
    REASON_UNSUPPORTED_LINE_START_BOM,
    REASON_UNSUPPORTED_OUTSIDE_VALUE_BOM,
)
from taskspec.bridge._breaks import LINE_ENDS
from taskspec.bridge._decode_load import char_position, refused

__all__ = ["check_bom_values", "check_inner_boms"]


#: The end of a line: LF, CR LF or CR.
_LINE_END: Final = re.compile(r"\r\n?|\n")


def check_inner_boms(source: str) -> None:
    """Reject a byte order mark that starts a line, past the start of the text.

    *source* is the text without its leading mark. The readers disagree on
    one: libyaml skips a mark that starts a line as if it were not there,
    where yaml.v3 reads it as text. Checked before anything is read; a mark
    past the start of its line is checked once the document is parsed
    (:func:`check_bom_values`).
    """
    index = source.find("\ufeff")
    while index != -1:
        if index == 0 or source[index - 1] in LINE_ENDS:
            line, column = char_position(source, index)
            raise refused(REASON_UNSUPPORTED_LINE_START_BOM, line, column)
        index = source.find("\ufeff", index + 1)


def check_bom_values(data: bytes, source: str) -> None:
    """Reject a byte order mark outside a scalar of the first document.

    Inside a scalar, plain, quoted or block, libyaml and yaml.v3 both read
    U+FEFF as part of the value, and so it is read (and warned of, TS305).
    Anywhere else past the start of a line (a comment, a second document)
    it is refused: yaml.v3 tests
    for a mark at the start of its read buffer rather than at the character
    it reads, so it can skip the first character of a later line. *source*
    is the text of *data* without a leading mark; a mark that starts a line
    was refused before (:func:`check_inner_boms`). A syntax error stops the
    check: the parse that follows reports it, as yaml.v3's parse does in Go.
    """
    marks = []
    index = source.find("\ufeff")
    while index != -1:
        marks.append(index)
        index = source.find("\ufeff", index + 1)
    spans: list[tuple[int, int]] = []
    parser = CParser(data)
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent:
                start = event.start_mark.index
                if event.style in ("|", ">"):  # the value starts on the next line
                    header_end = _LINE_END.search(source, start)
                    start = header_end.end() if header_end else len(source)
                spans.append((start, event.end_mark.index))
            elif event is None or kind is yaml.StreamEndEvent or kind is yaml.DocumentEndEvent:
                break
    except yaml.YAMLError:
        return
    finally:
        parser.dispose()
    starts = [start for start, _ in spans]  # in document order, none inside another
    for at in marks:
        i = bisect_right(starts, at) - 1
        if i < 0 or at >= spans[i][1]:
            line, column = char_position(source, at)
            raise refused(REASON_UNSUPPORTED_OUTSIDE_VALUE_BOM, line, column)
