"""What ``taskspec lsp`` works out from a sidecar's text, without the protocol.

The server (:mod:`taskspec.cli._lsp`) turns these into LSP messages; here
are plain values, so that each piece can be read and tested alone:

- :func:`problem_span`: where a problem of :func:`taskspec.check` starts and
  ends on its line (a problem has a start only);
- :func:`fixes`: the edits that fix a problem: its own fix, worked out by
  the libraries (a misspelt key or enum value, a value to quote, which may
  also become a block scalar), or for a problem without one, what its code
  proposes on its line (a tab to replace, an escape);
- :func:`hover`: a key's documentation from the proto's comments (through
  the JSON Schema generated from them), whether agents see it and its rule,
  or, on an enum value, the values it can take.

Positions here are 0-based lines and columns counted in characters (code
points); the server converts columns to the client's units.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from taskspec._codes import DUPLICATE_KEY, TAB_INDENT, UNKNOWN_KEY

__all__ = ["Edit", "Fix", "fixes", "hover", "problem_span"]

#: The codes whose problem starts at a key: the span is the key.
_KEY_CODES: Final = frozenset({UNKNOWN_KEY, DUPLICATE_KEY})
#: The code of an escape that does not exist.
_BAD_ESCAPE: Final = "TS016"
#: A block mapping key on its line: indentation, list dashes, key, and what follows.
_KEY_LINE: Final = re.compile(
    r"^(?P<lead>[ ]*(?:-[ ]+)*)(?P<key>[^\s#:'\"\-][^:#]*?):(?P<rest>[ \t].*|)$"
)
#: The spaces a tab that indents becomes: the canonical layout's indent.
INDENT: Final = 4


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, start) to (end_line, end) with *text* (0-based, characters)."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:
    """A quick fix: its title and its edits."""

    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


def _comment_start(text: str, start: int) -> int:
    """Where a ' #' comment starts on a line from *start*, or the line's length."""
    at = text.find(" #", start)
    return len(text) if at < 0 else at


def problem_span(lines: Sequence[str], line: int, column: int, code: str) -> tuple[int, int, int]:
    """The 0-based (line, start, end) of a problem at 1-based *line*, *column* (0: none).

    A problem without a position covers the first line. A key's problem
    covers the key; any other covers its value to the end of the line, less
    a comment and trailing blanks, and at least one character where the line
    has one.
    """
    if line <= 0 or line > len(lines):
        first = lines[0] if lines else ""
        return 0, 0, len(first)
    text = lines[line - 1]
    start = min(max(column - 1, 0), len(text))
    if code in _KEY_CODES:
        colon = text.find(":", start)
        end = colon if colon > start else len(text)
    elif code == TAB_INDENT:
        end = start + 1
    else:
        end = len(text[: _comment_start(text, start)].rstrip())
    end = max(end, min(start + 1, len(text)))
    return line - 1, start, end


def _tab_fix(lines: Sequence[str], line: int) -> list[Fix]:
    text = lines[line]
    lead = len(text) - len(text.lstrip(" \t"))
    if "\t" not in text[:lead]:
        return []
    width = 0
    for char in text[:lead]:
        width = (width // INDENT + 1) * INDENT if char == "\t" else width + 1
    spaces = "" if lead == len(text) else " " * width
    edit = Edit(line, 0, line, lead, spaces)
    return [Fix(f"Replace the tab with spaces ({INDENT} a tab)", (edit,), preferred=True)]


def fixes(
    lines: Sequence[str],
    line: int,
    start: int,
    end: int,
    *,
    code: str,
    hint: str,
    fix: Mapping[str, Any] | None = None,
) -> list[Fix]:
    """The quick fixes for a problem with *code* and *hint* spanning (*line*, *start*, *end*).

    *fix* is the problem's own fix (:class:`taskspec.Fix`, as its
    ``to_dict`` writes it), which the libraries work out where they find
    the problem: a misspelt key or enum value, a value to quote. It is the
    preferred quick fix, and the only edit made of a suggestion; a value to
    quote may also become a block scalar, in the same span. A problem
    without one gets the fixes its code has (a tab, an escape), on its own
    line.
    """
    if not 0 <= line < len(lines):
        return []
    if fix is not None:
        return _data_fixes(lines, fix)
    if code == TAB_INDENT:
        return _tab_fix(lines, line)
    if code == _BAD_ESCAPE:
        return _escape_fixes(lines, line)
    return []


def _data_fixes(lines: Sequence[str], fix: Mapping[str, Any]) -> list[Fix]:
    """The quick fix of a problem's own fix, and for a quoted value the block scalar too."""
    line, start = int(fix["start_line"]) - 1, int(fix["start_column"]) - 1
    end_line, end = int(fix["end_line"]) - 1, int(fix["end_column"]) - 1
    text = str(fix["text"])
    if not (0 <= line <= end_line < len(lines) and line == end_line and 0 <= start <= end):
        return []
    old = lines[line][start:end]
    edit = Edit(line, start, end_line, end, text)
    if text != _go_quoted(old):
        return [Fix(f'Replace with "{text}"', (edit,), preferred=True)]
    match = _KEY_LINE.match(lines[line])
    pad = " " * ((len(match.group("lead")) if match else 0) + INDENT)
    block = Edit(line, start, end_line, end, "|-\n" + pad + old)
    return [
        Fix("Quote the value", (edit,), preferred=True),
        Fix("Write the value as a block scalar (|)", (block,)),
    ]


def _go_quoted(text: str) -> str:
    """*text* as the libraries quote a value in a fix (Go's strconv.Quote)."""
    from taskspec.bridge._gostr import go_quote  # noqa: PLC0415

    return go_quote(text)


def _escape_fixes(lines: Sequence[str], line: int) -> list[Fix]:
    """A double-quoted value on 0-based *line* whose backslashes are text: single quotes."""
    match = _KEY_LINE.match(lines[line])
    if match is None:
        return []
    rest = match.group("rest")
    value_col = match.start("rest") + len(rest) - len(rest.lstrip())
    value = lines[line][value_col:].rstrip()
    inner = value[1:-1]
    if len(value) < 2 or value[0] != '"' or value[-1] != '"' or '"' in inner:
        return []
    end = len(lines[line])
    single = "'" + inner.replace("'", "''") + "'"
    pad = " " * (len(match.group("lead")) + INDENT)
    return [
        Fix(
            "Use single quotes, where a backslash is itself",
            (Edit(line, value_col, line, end, single),),
            preferred=True,
        ),
        Fix(
            "Write the value as a block scalar (|)",
            (Edit(line, value_col, line, end, "|-\n" + pad + inner),),
        ),
    ]


# -- hover --------------------------------------------------------------------


@cache
def _schema() -> Mapping[str, Any]:
    text = resources.files("taskspec").joinpath("taskspec.v1.schema.json").read_text("utf-8")
    schema: Mapping[str, Any] = json.loads(text)
    return schema


def _deref(node: Mapping[str, Any]) -> Mapping[str, Any]:
    while True:
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            node = _schema()["$defs"][ref.removeprefix("#/$defs/")]
        elif node.get("type") == "array" and isinstance(node.get("items"), Mapping):
            node = node["items"]
        else:
            return node


def _schema_field(path: Sequence[str]) -> Mapping[str, Any] | None:
    node: Mapping[str, Any] = _schema()
    for part in path:
        properties = _deref(node).get("properties")
        if not isinstance(properties, Mapping) or part not in properties:
            return None
        node = properties[part]
    return node


@cache
def _contracts() -> Mapping[str, Any]:
    from taskspec._contract import field_contract, reachable_fields  # noqa: PLC0415

    return {path: field_contract(fd) for fd, path in reachable_fields()}


def _rule(path: str) -> str:
    from taskspec._rules import RULES, shown_message  # noqa: PLC0415

    said = [
        f"{'each item ' if rule.item else ''}{rule.implementation.says(rule.bound)}"
        f"{' when set' if rule.ignore_zero else ''}"
        f" (`taskspec validate` says `{shown_message(rule)}`)"
        for rule in RULES
        if rule.path == path
    ]
    return "; ".join(said) if said else "none"


def _visibility(path: str) -> str:
    from taskspec.v1 import options_pb2  # noqa: PLC0415

    contract = _contracts().get(path)
    if contract is None:
        return ""
    if contract.visibility == options_pb2.VISIBILITY_HIDDEN:
        return "hidden from the agent"
    return "shown to the agent"


def _path_at(lines: Sequence[str], line: int) -> tuple[list[str], re.Match[str]] | None:
    """The keys from the top down to the key on 0-based *line*, and that line's match."""
    match = _KEY_LINE.match(lines[line])
    if match is None:
        return None
    path = [match.group("key").strip()]
    col = len(match.group("lead"))
    for above in range(line - 1, -1, -1):
        if col == 0:
            break
        parent = _KEY_LINE.match(lines[above])
        if parent is None:
            continue
        parent_col = len(parent.group("lead"))
        if parent_col < col:
            path.insert(0, parent.group("key").strip())
            col = parent_col
    return path, match


def hover(lines: Sequence[str], line: int, character: int) -> tuple[str, int, int] | None:
    """Markdown for the hover at 0-based (*line*, *character*), with its span on the line."""
    if not 0 <= line < len(lines):
        return None
    found = _path_at(lines, line)
    if found is None:
        return None
    path, match = found
    node = _schema_field(path)
    if node is None:
        return None
    dotted = ".".join(path)
    key_start, key_end = match.start("key"), match.end("key")
    if key_start <= character <= key_end:
        return _field_text(dotted, node), key_start, key_end
    rest = match.group("rest")
    value_start = match.start("rest") + len(rest) - len(rest.lstrip())
    text = lines[line]
    value_end = len(text[: _comment_start(text, value_start)].rstrip())
    enum = _deref(node).get("enum")
    if character < value_start or character > value_end or not isinstance(enum, list):
        return None
    value = text[value_start:value_end].strip("'\"")
    return _enum_text(dotted, value, _deref(node)), value_start, value_end


def _field_text(dotted: str, node: Mapping[str, Any]) -> str:
    out = [f"**{dotted}**", "", str(node.get("description", "")).strip()]
    visibility = _visibility(dotted)
    if visibility:
        out += ["", f"Agents: {visibility}."]
    out += ["", f"Rule: {_rule(dotted)}."]
    return "\n".join(out)


def _enum_text(dotted: str, value: str, node: Mapping[str, Any]) -> str:
    values = [str(v) for v in node["enum"]]
    described = node.get("enumDescriptions", [""] * len(values))
    out = [f"**{dotted}**: `{value}`", "", "Values:"]
    for name, doc in zip(values, described, strict=False):
        mark = " (this one)" if name == value else ""
        out.append(f"- `{name}`{mark}: {doc}")
    return "\n".join(out)
