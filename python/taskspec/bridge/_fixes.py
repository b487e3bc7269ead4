"""Fixes as data: the one safe edit a problem carries, placed as editors count.

A suggestion (a misspelt key, a misspelt enum value, a value that must be
quoted) is turned into a :class:`~taskspec.Fix` where it is worked out,
never read back from the hint's words. The text a fix replaces is a value
or key written as it reads: a plain scalar on one line, whose characters in
the document are its text. Anything else (a quoted key, an alias, a tag, a
value folded over lines) gets no fix, since the span it would replace is
not the text alone. The Go library places its fixes by the same rule.
"""

from __future__ import annotations

from functools import lru_cache

from taskspec._errors import Fix
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS, editor_position

__all__ = ["replace_at"]


@lru_cache(maxsize=2)
def _line_starts(source: str) -> list[int]:
    """Where each line of *source* starts, as YAML counts lines; kept for the last texts."""
    return [0, *(m.end() for m in LINE_BREAK.finditer(source))]


def _offset(source: str, line: int, column: int) -> int:
    """The offset in *source* of the reader's 1-based *line* and *column*, or -1."""
    starts = _line_starts(source)
    if not 0 < line <= len(starts) or column < 1:
        return -1
    return starts[line - 1] + column - 1


def replace_at(source: str, line: int, column: int, old: str, new: str) -> Fix | None:
    """The fix that writes *new* in place of *old*, written at *line* and *column* of *source*.

    *line* and *column* are the reader's (libyaml's marks, plus one);
    *source* is the text they count in, without a leading byte order mark.
    None unless the document holds *old*, on one line, just there, and
    *new* differs from it.
    """
    if not old or old == new or any(c in LINE_ENDS for c in old):
        return None
    at = _offset(source, line, column)
    if at < 0 or not source.startswith(old, at):
        return None
    start_line, start_column = editor_position(source, line, column)
    return Fix(new, start_line, start_column, start_line, start_column + len(old))
