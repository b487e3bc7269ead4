"""Placing a document's comments in its canonical layout, or refusing the ones with no place.

A comment is attached by where it sits in the source
(:mod:`taskspec.cli._comments_scan` finds it and what surrounds it):

- before all content: it stays at the top (this includes the
  ``# yaml-language-server: $schema=...`` modeline editors read);
- after all content: it stays at the end;
- on a line of its own: it belongs to the key or list item that follows,
  and is written directly above that key's line, indented like it;
- after something on the same line: it belongs to that line's key or list
  item (the innermost one), and ends that key's line, after one space.

Keys and items are identified by their path, so a comment moves with its
key when the canonical layout reorders keys. A comment that has no place in
the canonical layout (its key is omitted there, it sits inside ``[...]`` or
``{...}``, between a key and its value, ...) is refused with a violation
naming its line and column: never dropped silently, and never moved
somewhere it could be misread. :func:`place` decides, for every comment at
once, and :func:`render` writes the placed comments into the canonical text.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from yaml.tokens import AliasToken, BlockEntryToken, DocumentEndToken, KeyToken, ScalarToken

from taskspec._errors import Violation
from taskspec.bridge._layout import K_INT_MAP, K_MESSAGE, K_MESSAGE_LIST, TASK_SPEC, MessageInfo
from taskspec.cli._comments_scan import (
    BREAK,
    STRUCTURAL,
    Comment,
    CommentError,
    KeyPath,
    LayoutError,
    Scan,
)

__all__ = ["Layout", "Placed", "field_path", "place", "render"]


def field_path(path: KeyPath) -> str:
    """A path as the field paths of violations spell it (``difficulty_signals['a']``)."""
    out = ""
    info: MessageInfo | None = TASK_SPEC
    map_key = False
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif map_key or info is None:
            out += f"[{part!r}]"
            map_key = False
        else:
            out = f"{out}.{part}" if out else part
            fi = info.by_name.get(part)
            map_key = fi is not None and fi.kind is K_INT_MAP
            info = fi.message if fi is not None and fi.kind in (K_MESSAGE, K_MESSAGE_LIST) else None
    return out


# Where an inserted comment goes relative to others at the same offset.
_HEAD, _ABOVE, _EOL, _TAIL = range(4)


@dataclass(slots=True)
class Placed:
    """A comment's place in the canonical text, as an insertion at a character offset."""

    offset: int
    group: int  # _HEAD, _ABOVE, _EOL or _TAIL
    source: int  # character index in the source, for a stable order
    text: str


class _Refusals:
    """The comments that have no place, one violation each, in source order."""

    def __init__(self, scan: Scan) -> None:
        self.scan = scan
        self.violations: list[Violation] = []

    def add(self, comment: Comment, path: KeyPath | None, reason: str) -> None:
        where = field_path(path) if path else ""
        lines = comment.lines
        what = f"these {lines} comment lines" if lines > 1 else "this comment"
        message = f"cannot keep {what}: {reason}"
        self.violations.append(self.scan.refusal(comment.index, message, where))


class Layout:
    """The canonical text's lines, as offsets to insert comments at.

    A comment above a key goes at the start of the key's line as libyaml
    counts lines, which is not always after an LF: yaml.v3 writes a U+2028
    or U+2029 that ends a block scalar raw, and the next key follows it on
    the same LF-ended line. An end-of-line comment goes before the first LF
    after its key, which ends the key's header: values never hold a raw LF
    outside a block scalar, and a block scalar starts on the next line.
    """

    def __init__(self, canonical: Scan) -> None:
        text = canonical.text
        self.text = text
        self.by_path = {a.path: a for a in canonical.anchors}
        self.starts = [0] + [m.end() for m in BREAK.finditer(text)]
        self.indent: dict[int, int] = {}  # line start -> column of its first key or item
        for a in canonical.anchors:
            start = self.line_start(a.index)
            if start not in self.indent:
                if text[start : a.index].strip(" "):  # pragma: no cover - defensive
                    raise LayoutError("a key that does not start its line")
                self.indent[start] = a.index - start

    def line_start(self, index: int) -> int:
        return self.starts[bisect_right(self.starts, index) - 1]

    def line_end(self, index: int) -> int:
        return self.text.index("\n", index)


def place(source: Scan, layout: Layout) -> list[Placed]:
    """Where each source comment goes in the canonical text; refuses the ones with no place."""
    refusals = _Refusals(source)
    placed: list[Placed] = []
    eol_at: dict[int, Comment] = {}
    tokens, owner, anchors = source.tokens, source.owner, source.anchors
    end = len(layout.text)

    def named(i: int) -> str:
        return repr(field_path(anchors[i].path)) if i >= 0 else "the document"

    for c in source.comments:
        target = -1  # anchor it belongs to
        eol = not c.full_line
        if c.header_of >= 0:
            target = owner[c.header_of]
        elif c.prev < source.first_content:
            placed.append(Placed(0, _HEAD, c.index, c.text))
            continue
        elif c.depth > 0:
            refusals.add(
                c,
                anchors[owner[c.prev]].path if owner[c.prev] >= 0 else None,
                "it sits inside a [...] or {...} collection, whose entries the canonical"
                " layout writes one per line",
            )
            continue
        elif eol:
            if isinstance(tokens[c.prev], DocumentEndToken):
                placed.append(Placed(end, _TAIL, c.index, c.text))
                continue
            target = owner[c.prev]
            if target >= 0:
                line = source.position(c.index)[0]
                if line != anchors[target].line and not isinstance(
                    tokens[c.prev], (ScalarToken, AliasToken)
                ):
                    refusals.add(
                        c,
                        anchors[target].path,
                        f"it ends a line inside the value of {named(target)}, which starts on"
                        f" line {source.line_shown(anchors[target].index)} and is written in"
                        " another shape in"
                        " the canonical layout",
                    )
                    continue
        elif source.last_content <= c.prev:
            placed.append(Placed(end, _TAIL, c.index, c.text))
            continue
        else:
            n = c.prev + 1
            while isinstance(tokens[n], STRUCTURAL):
                n += 1
            if not isinstance(tokens[n], (KeyToken, BlockEntryToken)):
                refusals.add(
                    c,
                    anchors[owner[n]].path if owner[n] >= 0 else None,
                    f"it sits between {named(owner[n])} and its value, which the canonical"
                    " layout writes on one line",
                )
                continue
            target = owner[n]
        if target < 0:
            refusals.add(c, None, "the canonical layout has no line for it")
            continue
        found = layout.by_path.get(anchors[target].path)
        if found is None:
            refusals.add(
                c,
                anchors[target].path,
                f"it belongs to {named(target)}, which the canonical layout omits because"
                " its value is empty",
            )
            continue
        if not eol:
            placed.append(Placed(layout.line_start(found.index), _ABOVE, c.index, c.text))
            continue
        at = layout.line_end(found.index)
        first = eol_at.get(at)
        if first is not None:
            refusals.add(
                c,
                anchors[target].path,
                f"it belongs to {named(target)}, whose line in the canonical layout already"
                f" ends with the comment from line {source.line_shown(first.index)}",
            )
            continue
        eol_at[at] = c
        placed.append(Placed(at, _EOL, c.index, c.text))
    if refusals.violations:
        raise CommentError(refusals.violations)
    placed.sort(key=lambda p: (p.offset, p.group, p.source))
    return placed


def render(layout: Layout, placed: list[Placed]) -> str:
    """The canonical text with *placed* (sorted, as :func:`place` returns them) inserted."""
    text = layout.text
    out: list[str] = []
    done = 0
    for p in placed:
        out.append(text[done : p.offset])
        done = p.offset
        if p.group == _EOL:
            out.append(" " + p.text)
        elif p.group == _ABOVE:
            pad = " " * layout.indent[p.offset]
            # A block of lines, each indented like the key (one replace, not a loop).
            out.append(pad + (p.text.replace("\n", "\n" + pad) if pad else p.text) + "\n")
        else:
            out.append(p.text + "\n")
    out.append(text[done:])
    return "".join(out)
