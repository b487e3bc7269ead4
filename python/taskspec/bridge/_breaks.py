"""YAML 1.1's line breaks: one definition for the reader, the writer, the checks and the comments.

YAML 1.1 (which libyaml and yaml.v3 read) ends a line at CR, LF, CR LF,
NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR, not only at the breaks
``str.splitlines`` or a ``\\n`` count knows. Positions, comments, folding
and the writer's choice of style all turn on that set; written once here,
they cannot disagree about it. This module imports nothing of the package,
so the compiled writer can use it without loading the catalogue.

A problem's position is not YAML's, though: editors, GitHub and the
Language Server Protocol end a line only at LF, CR LF and CR.
:func:`editor_position` is the one conversion from the reader's line and
column to theirs, applied to every position a problem leaves the package
with.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Final

from taskspec._forms_gen import WORD_LINE_SEPARATOR, WORD_NEL, WORD_PARAGRAPH_SEPARATOR
from taskspec._words import render

__all__ = [
    "EDITOR_BREAK",
    "LINE_BREAK",
    "LINE_ENDS",
    "RAW_BREAKS",
    "YAML_ONLY_BREAKS",
    "editor_position",
]

#: The characters that end a line in YAML 1.1 (CR LF is one break).
LINE_ENDS: Final = "\r\n\x85\u2028\u2029"
#: One line break, as libyaml counts lines.
LINE_BREAK: Final = re.compile(f"\r\n|[{LINE_ENDS}]")
#: The line breaks YAML 1.1 knows and editors do not: NEL, LS and PS.
YAML_ONLY_BREAKS: Final = "\x85\u2028\u2029"
#: Each of YAML_ONLY_BREAKS by name, with its escapes in a double-quoted
#: string: YAML's short one and the one by number.
RAW_BREAKS: Final = {
    "\x85": (render(WORD_NEL), '"\\N"', "\\u0085"),
    "\u2028": (render(WORD_LINE_SEPARATOR), '"\\L"', "\\u2028"),
    "\u2029": (render(WORD_PARAGRAPH_SEPARATOR), '"\\P"', "\\u2029"),
}
#: One line break, as editors, GitHub and the Language Server Protocol count lines.
EDITOR_BREAK: Final = re.compile("\r\n|[\r\n]")


@lru_cache(maxsize=2)
def _line_starts(source: str) -> tuple[list[int], list[int]] | None:
    """Where each line of *source* starts, as YAML counts lines and as editors do.

    None when the two agree (no NEL, LS or PS). Kept for the last texts
    asked of, so that the problems of one document look at it once.
    """
    if not any(c in source for c in YAML_ONLY_BREAKS):
        return None
    yaml_starts = [0, *(m.end() for m in LINE_BREAK.finditer(source))]
    return yaml_starts, [0, *(m.end() for m in EDITOR_BREAK.finditer(source))]


def editor_position(source: str, line: int, column: int) -> tuple[int, int]:
    """The 1-based (line, column) an editor shows for YAML's *line* and *column* in *source*.

    *line* and *column* are the reader's (libyaml's marks, which end lines
    at NEL, LS and PS too, and count columns in characters); the result
    ends lines at LF, CR LF and CR only, and counts columns in characters
    (code points) from the start of that line. A line of 0 (no position)
    is kept, and so is a column of 0 (the line alone is known). *source* is
    the text the marks count in: without a leading byte order mark.
    """
    found = _line_starts(source) if line >= 1 else None
    if found is None:
        return line, column
    starts, editor_starts = found
    if line > len(starts):
        return line, column
    at = min(starts[line - 1] + max(column, 1) - 1, len(source))
    editor_line = bisect_right(editor_starts, at)
    return editor_line, at - editor_starts[editor_line - 1] + 1 if column else 0
