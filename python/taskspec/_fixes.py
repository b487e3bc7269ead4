"""Fixing documents from a program: the problems' fixes written in, and the canonical layout.

A problem that has one safe fix carries it (:attr:`taskspec.Violation.fix`,
a :class:`taskspec.Fix`): a misspelt key or enum value, a value that must be
quoted. :func:`apply_fixes` writes them into the document's text and
changes nothing else, so comments, line endings and layout stay as they
were. :func:`format_document` rewrites a document in the canonical layout,
keeping its comments, as ``taskspec fmt`` does. The Go library's
``ApplyFixes`` applies the same fixes alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from taskspec._errors import Violation
from taskspec.bridge._breaks import EDITOR_BREAK

__all__ = ["apply_fixes", "format_document"]

_BOM: Final = "\ufeff"


def _offsets(text: str) -> list[int]:
    """Where each line of *text* starts, lines as editors count them."""
    return [0, *(m.end() for m in EDITOR_BREAK.finditer(text))]


def _offset(text: str, starts: list[int], line: int, column: int) -> int:
    """The offset of the editor's 1-based *line* and *column* in *text*, or -1."""
    if line < 1 or column < 1 or line > len(starts):
        return -1
    at = starts[line - 1] + column - 1
    end = starts[line] if line < len(starts) else len(text)
    # A position may stand just past the line's last character, not in its break.
    line_end = end
    while line_end > starts[line - 1] and text[line_end - 1] in "\r\n":
        line_end -= 1
    return at if at <= line_end else -1


def apply_fixes(text: str, problems: Iterable[Violation]) -> str:
    """*text* with the fix of each of *problems* written in, and nothing else changed.

    *problems* are those :func:`taskspec.check` gives for *text* (or a
    :class:`~taskspec.TaskSpecError` holds); a problem without a fix is
    passed over. Fixes are written from the last to the first, and one whose
    span overlaps a fix already written is left out, so the result is fixed
    as far as it safely can be: check it again for what is left. Comments,
    line endings and layout are kept; a leading byte order mark too (the
    positions count after it). The Go library's ``ApplyFixes`` gives the
    same text.

    >>> import taskspec
    >>> doc = "task_id: t1\\nlanguag: go\\n"
    >>> taskspec.apply_fixes(doc, taskspec.check(doc))
    'task_id: t1\\nlanguage: go\\n'
    """
    bom = _BOM if text.startswith(_BOM) else ""
    body = text[len(bom) :]
    starts = _offsets(body)
    edits: list[tuple[int, int, str]] = []
    for v in problems:
        fix = v.fix
        if fix is None:
            continue
        start = _offset(body, starts, fix.start_line, fix.start_column)
        end = _offset(body, starts, fix.end_line, fix.end_column)
        if start < 0 or end < start:
            continue
        edits.append((start, end, fix.text))
    # Last first, to choose which of overlapping fixes is written; stable on a tie.
    edits.sort(key=lambda e: e[0], reverse=True)
    kept: list[tuple[int, int, str]] = []
    limit = len(body) + 1
    for start, end, new in edits:
        if end > limit or (end == limit and start == limit):
            continue  # overlaps a fix already taken
        kept.append((start, end, new))
        limit = start
    # Then the text in one pass, first to last.
    pieces = [bom]
    at = 0
    for start, end, new in reversed(kept):
        pieces += (body[at:start], new)
        at = end
    pieces.append(body[at:])
    return "".join(pieces)


def format_document(text: str) -> str:
    """*text*, a YAML TaskSpec document, in the canonical layout with its comments kept.

    It is what ``taskspec fmt`` writes: the Go package's exact bytes for the
    spec (``marshal_yaml``), with each comment put back next to the key or
    list item it belongs to, and with CRLF line endings when the document's
    first line ends in CRLF. The document is read and validated as
    :func:`taskspec.parse_task_spec` reads it, and its errors are raised
    unchanged; a comment that has no place in the canonical layout is
    refused with a :class:`~taskspec.DecodeError` naming its line and
    column, never dropped. Formatting the result again gives the same text.

    >>> import taskspec
    >>> doc = "# owner: eval\\n{task_spec_version: 1, task_id: t, language: go,\\n"
    >>> doc += " difficulty: easy, generated_from: {kind: kg_template}, prompt: p,\\n"
    >>> doc += " verification: {test_cmd: [go]}}\\n"
    >>> print(taskspec.format_document(doc), end="")
    # owner: eval
    task_spec_version: 1
    task_id: t
    language: go
    difficulty: easy
    generated_from:
        kind: kg_template
    prompt: p
    verification:
        test_cmd:
            - go
    """
    from taskspec.cli._comments import format_document as _format  # noqa: PLC0415

    data = text.encode("utf-8")
    formatted = _format(data).decode("utf-8")
    end = text.find("\n")
    if end > 0 and text[end - 1] == "\r":
        formatted = formatted.replace("\n", "\r\n")
    return formatted
