"""Shared pieces of the command line: input, problem reports, exit codes, progress.

Every command reads through :func:`read_input` (a file or ``-``, bounded
and non-blocking: the same read as :func:`taskspec.load`, see
:mod:`taskspec._io`), and the commands that read a file, check it and report
what is wrong (``show``, ``convert``, ``fmt``) do all three through
:func:`read_checked`; ``validate`` asks :func:`taskspec.check` for every
problem of a file, warnings included, and reports them through
:meth:`Report.problems`. Problems are reported through
:func:`format_problem`, the one place a problem is written, one line each,
each with its stable code (:mod:`taskspec._codes`) and in the contract's
one Problem model (code, field path, line, column, message, hint,
severity), in one of four formats:

- ``text``: the compiler convention ``path:line:col: CODE message; hint``,
  so editors and terminals jump to the spot; a warning reads
  ``path:line:col: warning: CODE message; hint``, as compilers mark theirs.
  What is unknown is left out rather than invented: a problem with no
  position (a file that cannot be read) is ``path: CODE message``, one with
  a line and no column ``path:line: CODE message``, and ``; hint`` is there
  only when there is a hint;
- ``jsonl``: one JSON object a line, for scripts that stream: exactly the
  fields of the proto ``taskspec.v1.Problem`` (``code``, ``field_path``,
  ``line``, ``column``, ``message``, ``hint``, ``severity``, the last as
  ``"error"`` or ``"warning"``) and ``path``, the file, every key always
  there: no position is ``0``, no hint ``""``, never null;
- ``json``: the same objects as one JSON document, with a summary; its
  lines are written as ``jsonl`` and wrapped by the command at the end
  (:func:`json_document`);
- ``github``: GitHub Actions workflow commands
  (``::error file=...,line=...,col=...,title=CODE::message; hint``, and
  ``::warning`` for a warning), which annotate the pull request's diff;
  ``line`` and ``col`` are given whenever they are known.

A message never holds its hint: text and github write ``; hint`` after it,
JSON gives it a field of its own.

A file name may hold a line break or any other control character, and a
crafted one could forge a line of its own (``x\nother.yaml:1:1: ...``) or
drive the terminal: the text and github formats escape them
(:func:`escape_controls`), and JSON escapes them as JSON does.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO, TypeVar

from taskspec._codes import INTERNAL, NOT_READABLE, SYNTAX, UNCHANGED, WARNING, WRONG_TYPE
from taskspec._errors import DecodeError, TaskSpecError, Violation
from taskspec._format import format_for_path
from taskspec._io import read_file, read_stream

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMATS",
    "RECORD_KEYS",
    "STDIN",
    "Progress",
    "Report",
    "add_input_options",
    "display_name",
    "escape_controls",
    "format_problem",
    "json_document",
    "misspelt",
    "no_sidecars",
    "os_reason",
    "problem_record",
    "read_checked",
    "read_format",
    "read_input",
    "render",
    "unreadable",
    "warn",
    "warn_misspelt",
    "warn_no_sidecars",
    "warning",
]

_T = TypeVar("_T")

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

#: The report formats of --format.
FORMATS = ("text", "json", "jsonl", "github")
#: The command-line name of standard input.
STDIN = "-"


def positive_int(text: str) -> int:
    """An argparse type for a count such as --jobs: a whole number of at least 1."""
    import argparse  # noqa: PLC0415 - only option parsing needs it

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def add_input_options(p: Any, *, discovery: bool) -> None:
    """The options every command shares for naming its input.

    Commands that walk directories (*discovery*) also take the sidecar
    selection flags, documented in :mod:`taskspec.cli._discover`.
    """
    p.add_argument(
        "--stdin-filename",
        metavar="NAME",
        help="the name messages use for standard input (-); its extension says the "
        "format stdin is read in, as for a file (.json, .binpb; else YAML)",
    )
    if discovery:
        p.add_argument(
            "--include",
            action="append",
            metavar="GLOB",
            help="file pattern that makes a sidecar below a directory; repeatable; replaces "
            "the default (taskspec.yaml, *.taskspec.yaml, and the same with .yml or .json) "
            "and [tool.taskspec] include",
        )
        p.add_argument(
            "--exclude",
            action="append",
            default=[],
            metavar="GLOB",
            help="file or directory pattern to skip below a directory; repeatable; adds to "
            "[tool.taskspec] exclude and the built-in .git, node_modules and virtualenvs",
        )
        p.add_argument(
            "--force-exclude",
            action="store_true",
            help="apply include and exclude (and .gitignore) to the paths named on the command "
            "line too, as a directory walk would: what pre-commit hooks pass",
        )
        p.add_argument(
            "--no-ignore",
            action="store_true",
            help="walk into what git ignores too (.gitignore files, .git/info/exclude)",
        )


def display_name(path: str, stdin_filename: str | None) -> str:
    """The name messages use for *path*: ``--stdin-filename`` stands for ``-``."""
    if path == STDIN:
        return stdin_filename or STDIN
    return path


def read_input(path: str) -> bytes:
    """The bytes of *path*, or of standard input for ``-``, read with the shared bound."""
    if path == STDIN:
        return read_stream(sys.stdin.buffer)
    return read_file(path)


def read_format(name: str) -> str:
    """The format file *name* is read in: the one its extension names, else YAML.

    ``convert``'s rule (:func:`taskspec.format_for_path`: ``.json`` proto3
    JSON, ``.binpb`` or ``.pb`` binary protobuf), applied by ``validate``,
    ``show`` and ``fmt`` to every file, and to standard input by the name
    ``--stdin-filename`` gives it.
    """
    fmt = format_for_path(name)
    return "yaml" if fmt is None else fmt.value


def render(v: Violation) -> str:
    """A violation's message followed by its hint, as one line for a person: ``message; hint``."""
    return f"{v.message}; {v.hint}" if v.hint else v.message


#: Control characters (C0, DEL, C1) and the Unicode line and paragraph
#: separators: what could break a line or drive a terminal.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    c = match.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def escape_controls(text: str) -> str:
    """*text* with every control character written as an escape (``\\n``, ``\\x1b``).

    For one-line output meant for people and line-based tools: a file name
    can then neither start a line of its own nor send the terminal a
    command. A backslash is left as it is, so ordinary paths read as they
    are; the price is that ``a\\nb`` could be a name with a backslash too.
    """
    return _CONTROLS.sub(_escaped, text)


def _escape_data(text: str) -> str:
    # GitHub's own escapes first (it decodes them); then the other controls.
    return escape_controls(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


#: The keys of a problem's JSON record: ``path`` and the proto Problem's fields, in its order.
RECORD_KEYS = (
    "path",
    "code",
    "field_path",
    "line",
    "column",
    "message",
    "hint",
    "severity",
    "fix",
)


def problem_record(path: str, v: Violation) -> dict[str, object]:
    """The JSON record of problem *v* of file *path*, as ``--format json``/``jsonl`` write it.

    Every key but ``fix`` is always there, with the proto's zero value when
    there is nothing to say (``0`` for no position, ``""`` for no hint), so
    that a script reads each record the same way; ``fix`` is there when the
    problem has one (an object of ``text``, ``start_line``,
    ``start_column``, ``end_line`` and ``end_column``), as proto3 JSON
    writes a message field. A record is exactly a ``taskspec.v1.Problem``
    in proto3 JSON with its field names (and ``severity`` spelled as
    :class:`~taskspec.Violation` spells it), plus the file's ``path``.
    """
    from taskspec.bridge._decode_msg import clip  # noqa: PLC0415

    record: dict[str, object] = {
        "path": path,
        "code": v.code,
        # A key can be a megabyte long; the message quotes it clipped, and so does this.
        "field_path": clip(v.field_path),
        "line": v.line,
        "column": v.column,
        "message": v.message,
        "hint": v.hint,
        "severity": v.severity,
    }
    if v.fix is not None:
        record["fix"] = v.fix.to_dict()
    return record


def format_problem(fmt: str, path: str, v: Violation) -> str:
    """One problem as one report line (with its newline) in format *fmt*.

    ``json`` gives the same line as ``jsonl``: the command wraps the lines
    into one document (:func:`json_document`). A problem of severity
    ``warning`` is marked as one in every format (``warning:`` before the
    code in text, a ``::warning`` annotation, its ``severity`` in JSON).
    """
    code = v.code
    warning = v.severity == WARNING
    if fmt in ("json", "jsonl"):
        import json  # noqa: PLC0415 - only --format json pays for it

        return json.dumps(problem_record(path, v)) + "\n"
    if fmt == "github":
        where = f"file={_escape_property(path)}"
        if v.line:
            where += f",line={v.line}"
            if v.column:
                where += f",col={v.column}"
        if code:
            where += f",title={_escape_property(code)}"
        level = "warning" if warning else "error"
        return f"::{level} {where}::{_escape_data(render(v))}\n"
    shown = f"{code} {render(v)}" if code else render(v)
    if warning:
        shown = f"warning: {shown}"
    if v.line:
        where = f"{v.line}:{v.column}" if v.column else f"{v.line}"
        return escape_controls(f"{path}:{where}: {shown}") + "\n"
    return escape_controls(f"{path}: {shown}") + "\n"


def json_document(lines: str, summary: dict[str, int]) -> str:
    """``--format json``: *lines* (as ``jsonl`` writes them) and *summary* as one document."""
    import json  # noqa: PLC0415

    problems = ",\n    ".join(lines.splitlines())
    body = f"[\n    {problems}\n  ]" if problems else "[]"
    return f'{{\n  "problems": {body},\n  "summary": {json.dumps(summary)}\n}}\n'


def _coded(v: Violation, fallback: str) -> Violation:
    """*v* with a code: its own, or *fallback* for a problem made without one."""
    if v.code:
        return v
    return Violation(v.field_path, v.message, v.line, v.column, v.hint, fallback)


def os_reason(err: OSError) -> str:
    """The OS's reason for a failed read or write, as messages give it ("Permission denied")."""
    return err.strerror or str(err)


def unreadable(reason: OSError | str, action: str = "read") -> Violation:
    """The problem of a path that cannot be read (or written): no position, no field."""
    if isinstance(reason, OSError):
        reason = os_reason(reason)
    return Violation("", f"cannot {action}: {reason}", code=NOT_READABLE)


class Report:
    """Counts problems and writes them, one line each, in one format.

    A file is counted once, as invalid (its content is wrong), unreadable
    (it, or the directory holding it, cannot be read or written) or left
    alone (it changed while a command was rewriting it).
    """

    def __init__(self, out: TextIO, fmt: str = "text") -> None:
        self.out = out
        self.fmt = fmt
        self.invalid = 0
        self.unreadable = 0
        self.left_alone = 0

    @property
    def failed(self) -> int:
        """Files reported so far, for whatever reason."""
        return self.invalid + self.unreadable + self.left_alone

    def changed(self, path: str, action: str) -> None:
        """A file that changed while it was being *action* (formatted), and was left alone."""
        self.left_alone += 1
        message = f"changed while being {action}; left alone with the newer content (run again)"
        self.out.write(format_problem(self.fmt, path, Violation("", message, code=UNCHANGED)))

    def error(self, path: str, err: TaskSpecError) -> None:
        """A file refused with *err*: invalid, one line per violation it holds."""
        self.invalid += 1
        fallback = SYNTAX if isinstance(err, DecodeError) else WRONG_TYPE
        self._write(path, [_coded(v, fallback) for v in err.violations])

    def problems(self, path: str, problems: Sequence[Violation]) -> bool:
        """Every problem of one file, one line each; True if the file is valid.

        A file is valid when none of its problems is an error: warnings are
        written and leave it valid.
        """
        self._write(path, problems)
        if any(v.severity != WARNING for v in problems):
            self.invalid += 1
            return False
        return True

    def os_error(self, path: str, err: OSError | str, action: str = "read") -> None:
        """A path that cannot be read (or written), with the OS's reason."""
        self.unreadable += 1
        self.out.write(format_problem(self.fmt, path, unreadable(err, action)))

    def _write(self, path: str, problems: Sequence[Violation]) -> None:
        self.out.write("".join(format_problem(self.fmt, path, v) for v in problems))

    def internal_error(self, path: str, err: Exception) -> None:
        """A bug met while checking a file, reported like a problem with it."""
        self.invalid += 1
        message = f"internal error: {type(err).__name__}: {err}"
        self.out.write(format_problem(self.fmt, path, Violation("", message, code=INTERNAL)))


def read_checked(
    report: Report, source: str | bytes, name: str, check: Callable[[bytes], _T]
) -> tuple[bytes, _T] | None:
    """The read-check-report step of every command that reads a sidecar.

    *source* is a path (``-`` for standard input), read with the shared
    bound, or the bytes of one already read. *check* (parse, convert,
    format, ...) gets the bytes. Both the input and its check's result are
    returned; when the input cannot be read, or *check* raises a
    :class:`~taskspec.TaskSpecError`, the problem is reported under *name*
    and the result is None.
    """
    if isinstance(source, str):
        try:
            data = read_input(source)
        except OSError as err:
            report.os_error(name, err)
            return None
    else:
        data = source
    try:
        return data, check(data)
    except TaskSpecError as err:
        report.error(name, err)
        return None


def warning(message: str) -> str:
    """The line of a warning for the person running the command, as stderr gets it."""
    return f"taskspec: warning: {escape_controls(message)}\n"


def warn(message: str) -> None:
    """A warning for the person running the command, on stderr."""
    sys.stderr.write(warning(message))


def no_sidecars(directory: str, patterns: Sequence[str]) -> str:
    """The warning line for a named directory in which the walk found nothing to check."""
    return warning(f"no sidecars found in {directory} (looked for {', '.join(patterns)})")


def warn_no_sidecars(directory: str, patterns: Sequence[str]) -> None:
    """:func:`no_sidecars`, on stderr."""
    sys.stderr.write(no_sidecars(directory, patterns))


def misspelt(path: str, checked: bool) -> str:
    """The warning line for a sidecar whose name ends in ``.yml`` (``taskspec.yml``).

    The default include patterns take it, and it is *checked* as YAML; a
    configuration that names only ``.yaml`` leaves it out. Either way the
    line names the spelling that every tool looks for.
    """
    expected = os.path.basename(path)[:-4] + ".yaml"
    if checked:
        return warning(f"{path}: a sidecar's name ends in .yaml; rename it to {expected}")
    return warning(
        f"skipped {path}: a sidecar's name ends in .yaml; rename it to {expected} to check it"
    )


def warn_misspelt(path: str, checked: bool) -> None:
    """:func:`misspelt`, on stderr."""
    sys.stderr.write(misspelt(path, checked))


class Progress:
    """A one-line progress indicator on stderr, shown only when stderr is a terminal.

    Piped or redirected output stays clean for logs and CI. It redraws at
    most ten times a second, and :meth:`clear` removes it before other
    output is written, so it never lands in the middle of a report line.
    While the work is still being found (:attr:`counting`), the total is not
    known, so it shows a running count and no bar: a bar against a growing
    total would claim 100% long before the end.
    """

    def __init__(self, label: str, out: TextIO, *, enabled: bool | None = None) -> None:
        self.label = label
        self.out = out
        self.total = 0
        self.counting = True
        self.done = 0
        self.enabled = out.isatty() if enabled is None else enabled
        self._shown = False
        self._next = 0.0

    def advance(self, count: int) -> None:
        """Count *count* more items done and redraw if it is time to."""
        self.done += count
        if self.enabled and (time.monotonic() >= self._next or self.done >= self.total):
            self.draw()

    def draw(self) -> None:
        """Draw the indicator now."""
        if not self.enabled:
            return
        self._next = time.monotonic() + 0.1
        if self.counting:
            found = max(self.total, self.done)
            self.out.write(f"\r{self.label} {self.done} done, {found} found so far\x1b[K")
        else:
            total = max(self.total, self.done, 1)
            width = max(10, min(40, shutil.get_terminal_size().columns - len(self.label) - 32))
            filled = width * self.done // total
            bar = "#" * filled + "." * (width - filled)
            percent = 100 * self.done // total
            self.out.write(f"\r{self.label} [{bar}] {percent:3d}% {self.done}/{self.total}\x1b[K")
        self.out.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the indicator, leaving the cursor at the start of an empty line."""
        if self._shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self._shown = False


# --- the hint for a block prompt that fmt writes as one quoted line -----------------
#
# A prompt of several lines is written by Go's writer (yaml.v3), and so by
# fmt, as a literal block (|-), unless the block could not carry the text
# exactly: a character yaml.v3 writes only as an escape (an emoji or any
# other character beyond U+FFFF, a control character, U+FEFF), or a line
# that ends in a space. Then it is one double-quoted line, with \n for each
# break, which a person who wrote the block does not expect: fmt and
# validate say so, and why, on stderr. The file stays valid.

#: A prompt written as a block: the top-level key, then | or > (a header).
_BLOCK_PROMPT = re.compile(rb"^prompt:[ \t]*[|>]", re.MULTILINE)


def why_quoted(text: str) -> str:
    """Why *text*, of several lines, cannot be written as a block ("" when it can)."""
    from taskspec.bridge._scalar import (  # noqa: PLC0415 - only for a rare file
        SPECIAL_CHARACTERS,
        analyze,
        is_literal_value,
    )

    if "\n" not in text or is_literal_value(text):
        return ""
    for number, line in enumerate(text.split("\n"), 1):
        if analyze(line) & SPECIAL_CHARACTERS:
            for ch in line:
                if analyze(ch) & SPECIAL_CHARACTERS:
                    import unicodedata  # noqa: PLC0415

                    shown = f"{ch} " if ch.isprintable() else ""
                    name = unicodedata.name(ch, "")
                    named = f", {name}" if name else ""
                    return (
                        f"line {number} of the prompt holds {shown}(U+{ord(ch):04X}{named}), "
                        "which can only be written as an escape"
                    )
        if line.endswith(" "):
            return f"line {number} of the prompt ends in a space, which a block cannot keep"
    return "the prompt cannot be written as a block"  # pragma: no cover - see is_literal_value


def block_prompt_hint(data: bytes) -> tuple[int, int, str] | None:
    """The line and column of a block prompt in *data* that fmt will quote, and why.

    None when the prompt is not written as a block, can stay one, or the
    document is not a valid spec (its problems come first).
    """
    if data.isascii() and b" \n" not in data and b" \r" not in data and data[-1:] != b" ":
        # In ASCII only a trailing space can make a block quoted (YAML has no
        # raw control characters): the common file is not parsed again.
        return None
    match = _BLOCK_PROMPT.search(data)
    if match is None:
        return None
    from taskspec._api import parse_task_spec  # noqa: PLC0415

    try:
        spec = parse_task_spec(data)
    except TaskSpecError:
        return None
    reason = why_quoted(spec.prompt)
    if not reason:
        return None
    line = data.count(b"\n", 0, match.start()) + 1
    return line, match.end() - match.start(), reason


def note_block_prompt(name: str, data: bytes, out: TextIO | None = None) -> None:
    """Write the hint for *data*, the file *name*, to *out* (standard error), if it has one."""
    found = block_prompt_hint(data)
    if found is None:
        return
    line, column, reason = found
    (sys.stderr if out is None else out).write(
        f"taskspec: hint: {escape_controls(name)}:{line}:{column}: fmt writes this prompt as "
        f"one double-quoted line, not a block, as Go's writer does: {reason}\n"
    )
