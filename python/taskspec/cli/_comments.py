"""Comments kept across formatting: the canonical layout with the document's comments put back.

``fmt`` rewrites a sidecar in the canonical layout (Go's exact bytes). People
annotate sidecars (``# owner: platform-eval, INC-1234``), and a formatter
that deletes those notes loses data silently. So :func:`format_document`
writes the canonical layout and then puts every comment back next to the key
or list item it belongs to, wherever that key lands in the canonical order.

The work is done in three steps, each in its own module or here:

- collecting: :mod:`taskspec.cli._comments_scan` finds every comment
  between libyaml's tokens, and names each key and list item by its path,
  for the source and for the canonical text alike;
- placing: :mod:`taskspec.cli._comments_place` decides where each
  comment goes in the canonical text, or refuses, with a
  :class:`CommentError` naming its line and column, every comment that has
  no place there; a comment is never dropped silently;
- re-checking (here): the result is read back before it is returned, to
  prove that it holds the same spec and the same comments, in order.
"""

from __future__ import annotations

import re
from typing import Any, Final

from taskspec._api import marshal_yaml, parse_task_spec
from taskspec._errors import DecodeError, TaskSpecError
from taskspec._writable import check_nodes, check_size
from taskspec.cli._comments_place import Layout, place, render
from taskspec.cli._comments_scan import REPORT, CommentError, LayoutError, Scan, scan_document

__all__ = ["CommentError", "format_document"]


def _source_text(data: bytes) -> str:
    text = data.decode("utf-8")
    return text[1:] if text.startswith("\ufeff") else text


def format_document(data: bytes, *, strip_comments: bool = False) -> bytes:
    """The canonical layout of *data* with its comments kept where they belong.

    *data* is parsed and validated exactly as :func:`taskspec.parse_task_spec`
    does, and its errors are raised unchanged. The result is
    ``marshal_yaml(spec)`` (Go's exact bytes) with each comment of *data*
    put back: leading comments at the top, trailing ones at the end, a
    comment on a line of its own directly above the key or list item that
    followed it, and an end-of-line comment at the end of its key's line.
    Without comments the result is exactly ``marshal_yaml(spec)``; with
    *strip_comments* it is that, after the document's yaml-language-server
    modeline (``# yaml-language-server: $schema=...``) when it has one, on
    the first line, since an editor needs it to find the schema. Formatting
    the result again gives the same bytes.

    Raises :class:`CommentError` (a :class:`~taskspec.DecodeError`) naming
    the line and column of every comment that has no place in the canonical
    layout, rather than dropping it.
    """
    spec = parse_task_spec(data)
    # Aliases make a document expand: its canonical form may be over a
    # reader's limits, and is then refused rather than written.
    check_nodes(spec)
    canonical = check_size(spec, marshal_yaml(spec), "yaml")
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if b"#" not in raw:
        return canonical
    text = _source_text(raw)
    if strip_comments:
        return _modeline(raw, text) + canonical
    try:
        source = scan_document(raw, text, comments=True)
    except LayoutError as err:  # pragma: no cover - defensive
        raise DecodeError(f"cannot keep the comments: unexpected layout ({err})") from None
    if not source.comments:
        return canonical  # every '#' is inside a string
    ctext = canonical.decode("utf-8")
    try:
        layout = Layout(scan_document(canonical, ctext, comments=False))
    except LayoutError as err:  # pragma: no cover - defensive
        raise DecodeError(f"cannot keep the comments: unexpected layout ({err})") from None
    placed = place(source, layout)
    out = render(layout, placed).encode("utf-8")
    out = check_size(spec, out, "yaml", comments=len(out) - len(canonical))
    _check(out, spec, [p.text for p in placed], source)
    return out


#: The comment editors read a sidecar's schema from (yaml-language-server's modeline).
_MODELINE: Final = re.compile(r"#[ \t]*yaml-language-server[ \t]*:")


def _modeline(raw: bytes, text: str) -> bytes:
    """The first full-line modeline comment of the document, as a line of its own, or b""."""
    if b"yaml-language-server" not in raw:
        return b""
    try:
        source = scan_document(raw, text, comments=True)
    except LayoutError:  # pragma: no cover - defensive
        return b""
    for comment in source.comments:
        if not comment.full_line or comment.header_of != -1:
            continue
        for line in comment.text.split("\n"):
            if _MODELINE.match(line):
                return line.encode("utf-8") + b"\n"
    return b""


def _check(out: bytes, spec: Any, texts: list[str], source: Scan) -> None:
    """Prove that *out* reads back as *spec* and carries *texts*, in this order.

    The comment lines are compared, not the comments: two blocks placed
    one after the other read back as one.
    """
    problem = ""
    try:
        if parse_task_spec(out) != spec:
            problem = "it would change the spec"
        else:
            got = [c.text for c in scan_document(out, out.decode("utf-8"), comments=True).comments]
            if "\n".join(got) != "\n".join(texts):
                problem = "they would not read back as the same comments"
    except (TaskSpecError, LayoutError) as err:
        problem = f"the result would not read back ({err})"
    if problem:
        message = f"cannot keep the comments: {problem}"
        raise CommentError([source.refusal(source.comments[0].index, message, hint=REPORT)])
