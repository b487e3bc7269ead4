"""Every problem of a document at once: :func:`check`, and the error the readers raise.

A reader stops at the first problem, as Go's does; a person fixing a file
wants them all, and so does a program that shows them in an editor. So
:func:`check` decodes in collecting mode (see
:mod:`taskspec.bridge._decode_walk`) and returns, in this order:

1. the decode problems: every unknown key, duplicate key and value of the
   wrong type, in document order;
2. the broken rules of what could be read, each at its value, or, for a
   missing key, at the mapping that lacks it (hint ``key "x" is missing``);
3. the warnings: an artifact path that leads out of the workspace (TS301),
   a raw NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR (TS302), a prompt
   that holds a verification command word for word (TS303), a ' #' that
   ends a plain prompt (TS304) and a raw byte order mark in a value
   (TS305), each at its value or character, in document order.

YAML that cannot be read at all is reported alone. One mistake gives one
problem: a broken rule on a value that could not be read is left out
(``task_id: [a]`` is TS003, not also TS101), and so are the broken rules of
the field an unknown key's hint names and of every field under it
(``generated_frm:`` is TS001, not also TS103 ``generated_from.kind``).

The readers (:func:`taskspec.parse_task_spec`, :func:`taskspec.load`,
:func:`taskspec.parse`, ...) read fast and call :func:`raise_all` only when
they fail, so a valid document costs one parse; the error they raise holds
this list, with the problem the fast reader stopped at first.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NoReturn

from taskspec import _validate
from taskspec._artifacts import local_path_problem
from taskspec._codes import (
    ARTIFACT_PATH,
    CATALOGUE,
    COMMENT_IN_VALUE,
    DUPLICATE_KEY,
    ERROR,
    PROMPT_HAS_COMMAND,
    UNKNOWN_KEY,
    UNSUPPORTED,
    WARNING,
    YAML_BYTE_ORDER_MARK,
    YAML_LINE_BREAK,
)
from taskspec._errors import DecodeError, Fix, InvalidDocumentError, ValidationError, Violation
from taskspec._format import Data, Format, to_format
from taskspec._forms_gen import (
    HINT_COMMENT_IN_VALUE_QUOTE,
    HINT_PROMPT_HAS_COMMAND_SAY_WHAT,
    HINT_YAML_BYTE_ORDER_MARK_ESCAPE,
    HINT_YAML_LINE_BREAK_ESCAPE,
    MSG_ARTIFACT_PATH_NOT_ALLOWED,
    MSG_COMMENT_IN_VALUE_ENDS,
    MSG_PROMPT_HAS_COMMAND_HOLDS,
    MSG_YAML_BYTE_ORDER_MARK_AT_PATH,
    MSG_YAML_BYTE_ORDER_MARK_PLAIN,
    MSG_YAML_LINE_BREAK_AT_PATH,
    MSG_YAML_LINE_BREAK_PLAIN,
    REASON_UNSUPPORTED_QUESTION_IN_FLOW,
)
from taskspec._rules import KIND_CODES
from taskspec._words import pieces, render
from taskspec.bridge import _fastpath, _layout
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS, RAW_BREAKS, editor_position
from taskspec.bridge._fixes import replace_at
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = ["check", "raise_all"]

Position = tuple[int, int]

#: The characters YAML 1.1 readers read as line breaks and JavaScript
#: readers keep, with their names and escapes (TS302).
_RAW_BREAKS: Final = RAW_BREAKS
_RAW_BREAK_BYTES: Final = tuple(c.encode() for c in _RAW_BREAKS)


def check(
    data: Data | str, format: Format | str = "yaml", *, strict_paths: bool = False
) -> list[Violation]:
    """Every problem of the document *data* in *format*: decode, validate and warnings.

    An empty list means the document is valid and has nothing to warn of.
    Problems come in the order described in :mod:`taskspec._check`; a
    warning has ``severity == "warning"`` and does not make the document
    invalid. With *strict_paths*, an artifact path that leaves the
    workspace (TS301) is an error instead. For JSON and binary protobuf the
    decode problems are that format's, and positions are given where the
    reader knows them (0 otherwise).
    """
    return _collect(data, to_format(format), strict_paths, fast=True)


def _collect(data: Data | str, fmt: Format, strict_paths: bool, *, fast: bool) -> list[Violation]:
    """:func:`check`'s list; *fast* tries the canonical reader first (a reader that
    failed has tried it already)."""
    if fmt is Format.YAML:
        return _check_yaml(data, strict_paths, fast)
    # YAML, the common case, does not import protobuf's JSON support.
    from taskspec import _binpb, _json  # noqa: PLC0415 - the other formats only

    try:
        if fmt is Format.JSON:
            spec, problems = _json.read_json(data, collect=True)
        else:
            if isinstance(data, str):
                raise DecodeError("binary protobuf must be bytes, got str")
            spec, problems = _binpb.read_binpb(data, collect=True)
    except DecodeError as err:  # data that cannot be read: alone
        return list(err.violations)
    warnings = [*_artifact_paths(spec, {}, strict_paths), *_prompt_commands(spec, {})]
    return [*_with_rules(spec, problems, {}, {}), *warnings]


def _check_yaml(data: Data | str, strict_paths: bool, fast: bool) -> list[Violation]:
    if (
        fast
        and isinstance(data, (bytes, str))
        and not _has_raw_break(data)
        and not _has_inner_bom(data)
    ):
        # A canonical document, valid and with no artifact path to warn of,
        # costs what parse_task_spec costs: the fast reader, no composing.
        spec = _fastpath.parse_canonical(data)
        if (
            spec is not None
            and not _validate.check(spec, canonical=True)
            and not any(local_path_problem(a.path) for a in spec.solution_artifacts)
            and not _prompt_commands(spec, {})
        ):
            return []
    from taskspec.bridge._decode import decode  # noqa: PLC0415
    from taskspec.bridge._decode_load import source_of  # noqa: PLC0415

    try:
        decoded = decode(data, collect=True)
    except DecodeError as err:  # YAML that cannot be read: alone
        return for_editors(data, err.violations)
    _, source = source_of(data)
    source = source.removeprefix("\ufeff")
    found = _with_rules(
        decoded.spec, list(decoded.problems), decoded.raw_enums, decoded.positions, source
    )
    warnings = _artifact_paths(decoded.spec, decoded.positions, strict_paths)
    warnings += _prompt_commands(decoded.spec, decoded.positions)
    if _has_raw_break(source):
        warnings += _raw_breaks(source, decoded.positions)
    if "\ufeff" in source:
        warnings += _byte_order_marks(source, decoded.positions)
    if " #" in source:
        warnings += _comments_in_values(source, decoded.spec, decoded.positions)
    warnings.sort(key=_position)
    return _moved(source, found + warnings)


def for_editors(data: Data | str, violations: Sequence[Violation]) -> list[Violation]:
    """*violations* of the YAML document *data* at the positions editors give (see _breaks)."""
    if isinstance(data, (bytes, str)) and not _has_raw_break(data):
        return list(violations)
    from taskspec.bridge._decode_load import source_of  # noqa: PLC0415

    try:
        _, source = source_of(data)
    except DecodeError:  # not text: no line break to count
        return list(violations)
    return _moved(source.removeprefix("\ufeff"), violations)


def _moved(source: str, violations: Sequence[Violation]) -> list[Violation]:
    """*violations*, their YAML positions in *source* given as editors count lines."""
    if not _has_raw_break(source):
        return list(violations)
    out = []
    for v in violations:
        line, column = editor_position(source, v.line, v.column)
        out.append(v if (line, column) == (v.line, v.column) else v._moved(line, column))
    return out


def _has_raw_break(data: bytes | str) -> bool:
    if isinstance(data, str):
        return any(c in data for c in _RAW_BREAKS)
    return any(b in data for b in _RAW_BREAK_BYTES)


def _has_inner_bom(data: bytes | str) -> bool:
    if isinstance(data, str):
        return data.find("\ufeff", 1) != -1
    return data.find(_BOM, 3) != -1


_BOM: Final = "\ufeff".encode()


def _with_rules(
    spec: taskspec_pb2.TaskSpec,
    problems: list[Violation],
    raw_enums: Mapping[str, str],
    positions: Mapping[str, Position],
    source: str = "",
) -> list[Violation]:
    """*problems* (decode's, in document order), then the broken rules they leave."""
    hidden = _hidden(problems)
    rules = [
        _placed(v, positions) if positions else v
        for v in _validate.check(spec, raw_enums, positions, source=source)
        if not _under(v.field_path, hidden)
    ]
    rules.sort(key=_position)  # stable: Go's order among rules at one place
    return [*problems, *rules]


def _hidden(problems: Sequence[Violation]) -> tuple[str, ...]:
    """The fields whose broken rules would say again what *problems* say.

    A value that could not be read (a wrong type) is left out of the spec,
    so its rule is broken because of that; a misspelt key whose hint names
    a field already says that field is missing.
    """
    hidden: list[str] = []
    for v in problems:
        if v.code == UNKNOWN_KEY:
            meant = _meant(v)
            if meant:
                hidden.append(meant)
        elif v.field_path and v.code != DUPLICATE_KEY:
            hidden.append(v.field_path)
        elif v.code == UNSUPPORTED and v.message.startswith(_UNREAD_ROOT):
            return ("",)  # the top mapping could not be read: every rule
    return tuple(hidden)


#: The refusal of a '?' in a plain scalar inside the top mapping, written
#: in flow style: the mapping is not read, so no rule is checked.
_UNREAD_ROOT: Final = pieces(REASON_UNSUPPORTED_QUESTION_IN_FLOW)[0]


def _under(path: str, fields: Iterable[str]) -> bool:
    """Whether *path* is one of *fields* or a field under one ("" is the whole spec)."""
    return any(not p or path == p or path.startswith((f"{p}.", f"{p}[")) for p in fields)


def _meant(v: Violation) -> str | None:
    """The path of the field an unknown key's hint names (``did you mean "x"?``), or None.

    The hint names the field as the document's format spells it: by its
    proto name in YAML, by its JSON name (``generatedFrom``) in JSON; the
    path is made of proto names in both.
    """
    quoted = v.hint.removeprefix("did you mean ").removesuffix("?")
    if quoted == v.hint or not (len(quoted) >= 2 and quoted[0] == quoted[-1] == '"'):
        return None
    name = quoted[1:-1]
    parent = v.field_path.rpartition(".")[0]
    info: _layout.MessageInfo | None = _layout.TASK_SPEC
    for part in parent.split(".") if parent else ():
        fi = info.by_name.get(part.partition("[")[0]) if info is not None else None
        info = fi.message if fi is not None else None
    if info is None:
        return None
    for fi in info.fields:
        if name in (fi.name, fi.descriptor.json_name):
            return f"{parent}.{fi.name}" if parent else fi.name
    return None


def _position(v: Violation) -> Position:
    return v.line, v.column


def _placed(v: Violation, positions: Mapping[str, Position]) -> Violation:
    """A broken rule at its value, or for a missing key at the mapping that lacks it.

    The message stays Go's (``invalid language ""``); where Go's wording does
    not say the key is missing, the hint does (``key "language" is missing``).
    """
    path = v.field_path
    # An item's rule is about an item in the document, which Validate placed
    # (at the item, or at the list when the reader kept no item positions).
    if not path or path in positions or _LIST_ITEM.search(path):
        return v
    parent, _, name = path.rpartition(".")
    while parent and parent not in positions:
        parent, _, name = parent.rpartition(".")
    line, column = positions.get(parent, (1, 1))
    hint = v.hint
    if not hint and v.code not in _SAYS_REQUIRED:
        hint = f"key {go_quote(name)} is missing" + (f" in {parent}" if parent else "")
    return Violation(v.field_path, v.message, line, column, hint, v.code, v.severity)


#: The codes of the kinds whose messages say a key is required already (a
#: blank string, an empty list): a missing key needs no hint saying so.
_SAYS_REQUIRED: Final = frozenset(
    KIND_CODES[f"taskspec.v1.{name}"]
    for name in ("StringRules.not_blank", "RepeatedRules.not_empty")
)


def _artifact_paths(
    spec: taskspec_pb2.TaskSpec, positions: Mapping[str, Position], strict_paths: bool
) -> list[Violation]:
    """TS301 for every artifact path that leads out of the workspace, at the path's value."""
    found = []
    for i, artifact in enumerate(spec.solution_artifacts):
        problem = local_path_problem(artifact.path)
        if not problem:
            continue
        path = f"solution_artifacts[{i}].path"
        line, column = positions.get(path, (0, 0))
        found.append(
            Violation(
                path,
                render(
                    MSG_ARTIFACT_PATH_NOT_ALLOWED, value=go_quote(artifact.path), reason=problem
                ),
                line,
                column,
                code=ARTIFACT_PATH,
                severity=ERROR if strict_paths else WARNING,
            )
        )
    return found


def _prompt_commands(
    spec: taskspec_pb2.TaskSpec, positions: Mapping[str, Position]
) -> list[Violation]:
    """TS303 for each verification command of two words or more the prompt holds, at the prompt.

    A command is looked for as its arguments joined by single spaces, the
    way a prompt would spell it out.
    """
    found = []
    line, column = positions.get("prompt", (0, 0))
    for name in ("build_cmd", "test_cmd"):
        cmd = getattr(spec.verification, name)
        if sum(1 for arg in cmd if arg.strip(_ASCII_BLANKS)) < 2:
            continue  # not two words: blank arguments are none
        text = " ".join(cmd)
        if text in spec.prompt:
            found.append(
                Violation(
                    "prompt",
                    render(
                        MSG_PROMPT_HAS_COMMAND_HOLDS,
                        path=f"verification.{name}",
                        value=go_quote(text),
                    ),
                    line,
                    column,
                    hint=render(HINT_PROMPT_HAS_COMMAND_SAY_WHAT),
                    code=PROMPT_HAS_COMMAND,
                    severity=WARNING,
                )
            )
    return found


#: What an argument of a command must hold more than to be a word (TS303).
_ASCII_BLANKS: Final = " \t\r\n"

#: The characters that fold away between the lines of a plain scalar, or
#: pad it: blanks and YAML 1.1's line breaks.
_FOLDED: Final = frozenset(" \t" + LINE_ENDS)


def _comments_in_values(
    source: str, spec: taskspec_pb2.TaskSpec, positions: Mapping[str, Position]
) -> list[Violation]:
    """TS304: a prompt written plain whose line goes on after ``' #'``.

    YAML ends a plain scalar at a blank followed by ``#``: the rest of the
    line is a comment, so ``prompt: Fix issue #12`` is the prompt "Fix
    issue". A comment is meant to stand apart, with two spaces before it
    by convention; one space is taken for text that was lost. The value's
    end is found by matching its characters, folding aside, against the
    text from where it starts.
    """
    fields = [("prompt", spec.prompt)]
    starts = [0] + [m.end() for m in LINE_BREAK.finditer(source)]
    found = []
    for path, value in fields:
        line, column = positions.get(path, (0, 0))
        if not value or not 0 < line <= len(starts):
            continue
        at = starts[line - 1] + column - 1
        if source[at : at + 1] in ("", '"', "'", "|", ">", "!", "&", "*"):
            continue  # not a plain scalar as written
        for char in value:
            if char in _FOLDED:
                continue
            while at < len(source) and source[at] in _FOLDED:
                at += 1
            if source[at : at + 1] != char:
                break
            at += 1
        else:
            if source.startswith(" #", at):
                hash_line = _line_of(starts, at + 1)
                found.append(
                    Violation(
                        path,
                        render(MSG_COMMENT_IN_VALUE_ENDS, path=_shown(path)),
                        hash_line,
                        at + 2 - starts[hash_line - 1],
                        hint=render(HINT_COMMENT_IN_VALUE_QUOTE),
                        code=COMMENT_IN_VALUE,
                        severity=WARNING,
                        fix=_whole_line_quoted(source, starts, line, column, hash_line),
                    )
                )
    return found


#: What stands before a prompt written on its key's line, in block style.
_PROMPT_KEY: Final = re.compile(r" *prompt: +")


def _whole_line_quoted(
    source: str, starts: Sequence[int], line: int, column: int, hash_line: int
) -> Fix | None:
    """TS304's fix: the prompt and the rest of its line, comment and all, double-quoted.

    Only for a prompt that starts on its key's line, in block style, and
    ends on it (the catalogue's fix, ``prompt: "Fix issue #12 ..."``).
    """
    start = starts[line - 1] + column - 1
    if hash_line != line or not _PROMPT_KEY.fullmatch(source, starts[line - 1], start):
        return None
    after = LINE_BREAK.search(source, start)
    whole = source[start : after.start() if after else len(source)].rstrip(" \t")
    return replace_at(source, line, column, whole, go_quote(whole))


def _line_of(starts: Sequence[int], offset: int) -> int:
    """The 1-based line of *offset*, given the offsets *starts* where lines start."""
    return bisect_right(starts, offset)


#: The end of the path of a list's item (``test_cmd[2]``), whose position
#: the reader keeps for the item's rules.
_LIST_ITEM: Final = re.compile(r"\[\d+\]\Z")


def _raw_breaks(source: str, positions: Mapping[str, Position]) -> list[Violation]:
    """TS302: each raw NEL, LS and PS, at the character.

    The field is the deepest one whose value starts before the character
    (the last to start, the longer path on a tie), or "" when none does.
    """
    fields = sorted(
        (pos, path.count(".") + path.count("["), path)
        for path, pos in positions.items()
        if path and not _LIST_ITEM.search(path)  # a list's items are the list's, as in Go
    )
    starts = [(pos, depth) for pos, depth, _ in fields]
    found = []
    line, line_start = 1, 0
    for match in LINE_BREAK.finditer(source):
        char = match.group()
        if char in _RAW_BREAKS:
            at = (line, match.start() - line_start + 1)
            index = bisect_left(starts, (at, -1)) - 1
            path = fields[index][2] if index >= 0 else ""
            what, escape, _ = _RAW_BREAKS[char]
            message = (
                render(MSG_YAML_LINE_BREAK_AT_PATH, path=_shown(path), what=what)
                if path
                else render(MSG_YAML_LINE_BREAK_PLAIN, what=what)
            )
            found.append(
                Violation(
                    path,
                    message,
                    *at,
                    hint=render(HINT_YAML_LINE_BREAK_ESCAPE, value=escape),
                    code=YAML_LINE_BREAK,
                    severity=WARNING,
                )
            )
        line += 1
        line_start = match.end()
    return found


def _byte_order_marks(source: str, positions: Mapping[str, Position]) -> list[Violation]:
    """TS305: each raw byte order mark past the start of *source*, at the character.

    Decoding refused any that is not inside a value, so each one here is
    part of a value. The field is found as for TS302, but a value may start
    with the mark: the deepest whose value starts at or before it.
    """
    fields = sorted(
        (pos, path.count(".") + path.count("["), path)
        for path, pos in positions.items()
        if path and not _LIST_ITEM.search(path)
    )
    starts = [(pos, depth) for pos, depth, _ in fields]
    found = []
    # The lines are counted once, from each mark to the next.
    line, line_start, counted = 1, 0, 0
    index = source.find("\ufeff")
    while index != -1:
        for match in LINE_BREAK.finditer(source, counted, index):
            line += 1
            line_start = match.end()
        counted = index
        at = (line, index - line_start + 1)
        i = bisect_right(starts, (at, sys.maxsize)) - 1
        path = fields[i][2] if i >= 0 else ""
        message = (
            render(MSG_YAML_BYTE_ORDER_MARK_AT_PATH, path=_shown(path))
            if path
            else render(MSG_YAML_BYTE_ORDER_MARK_PLAIN)
        )
        found.append(
            Violation(
                path,
                message,
                *at,
                hint=render(HINT_YAML_BYTE_ORDER_MARK_ESCAPE),
                code=YAML_BYTE_ORDER_MARK,
                severity=WARNING,
            )
        )
        index = source.find("\ufeff", index + 1)
    return found


def _shown(path: str) -> str:
    from taskspec.bridge._decode_msg import shown_path  # noqa: PLC0415 - with the decoder

    return shown_path(path)


def raise_all(first: Violation, data: Data | str, fmt: Format | str) -> NoReturn:
    """Raise the error of a document that failed to read: every problem, *first* first.

    *first* is the problem the fast reader stopped at (a decode problem, or
    the first broken rule, Go's); the others follow in :func:`check`'s
    order. The error is a :class:`DecodeError` when any problem is of the
    decode stage, else a :class:`ValidationError`; an
    :class:`InvalidDocumentError`, which is both, when there are problems of
    both kinds.
    """
    problems = _collect(data, to_format(fmt), False, fast=False)
    key = (first.code, first.field_path, first.message)
    for i, v in enumerate(problems):
        if (v.code, v.field_path, v.message) == key:
            problems = [v, *problems[:i], *problems[i + 1 :]]
            break
    else:
        problems = [first, *problems]
    if not any(_is_decode(v) for v in problems):
        raise ValidationError(problems)
    if any(_is_broken_rule(v) for v in problems):
        raise InvalidDocumentError(problems)
    raise DecodeError(problems)


def _is_decode(v: Violation) -> bool:
    kind = CATALOGUE.get(v.code)
    return kind is not None and kind.stage == "decode"


def _is_broken_rule(v: Violation) -> bool:
    kind = CATALOGUE.get(v.code)
    return v.severity != WARNING and kind is not None and kind.stage == "validate"
