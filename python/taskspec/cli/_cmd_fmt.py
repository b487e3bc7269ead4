"""``taskspec fmt [--check] [--diff] [--strip-comments] PATH...``: canonical layout, comments kept.

The layout is the canonical YAML the Go package writes, with the file's
comments kept where a person put them (see :mod:`taskspec.cli._comments`): a
comment is part of the file's data, and a formatter that drops it silently
loses what a person wrote. A comment that has no place in the canonical
layout makes ``fmt`` refuse the file, naming the comment's line, rather than
drop it; ``--strip-comments`` writes Go's exact bytes instead.

A file keeps its line endings: one whose first line ends in CRLF is written
with CRLF throughout, and counts as formatted when it is the canonical
layout with CRLF line endings (YAML reads either the same).

Files are replaced atomically, through symbolic links, keeping their mode
(see :func:`taskspec._io.atomic_write`); a file already in canonical layout
is not touched. Each file changed is named with its verb (``reformatted``,
``would reformat`` under ``--check``) on stdout, and a summary ("2 files
reformatted, 5 already formatted") closes the run on stderr. ``-`` formats
standard input to standard output.

An invalid file is not formatted, and is reported in one line ("cannot
format: the file is invalid"), at its first problem, with that problem's
code: ``taskspec validate`` lists every problem, and a pre-commit run that
has both hooks shows each problem once.

``fmt`` formats YAML only. A file whose extension names another format
(``.json``, ``.binpb``; for standard input, ``--stdin-filename``'s), as
``convert`` and ``validate`` tell them apart, is refused without being
read, with code TS903 and a pointer to ``convert``: read as YAML, JSON
would give a list of false problems, and binary protobuf none that helps.
Below a directory (and under ``--force-exclude``) a ``*.taskspec.json``
sidecar is passed over without a word: ``validate`` checks it, and there is
no layout of its own for ``fmt`` to write.

An editor may save a file while ``fmt`` works on it, and its save is newer
than anything ``fmt`` could write: a file is replaced only if it still holds
exactly the bytes that were formatted, and a file that changed is reported,
left with the newer content, and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Final

from taskspec._codes import code_of
from taskspec._errors import DecodeError, TaskSpecError, ValidationError, Violation
from taskspec._io import ChangedError, atomic_write, read_snapshot
from taskspec.cli._discover import ConfigError, Selection, walk
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    Report,
    add_input_options,
    display_name,
    escape_controls,
    note_block_prompt,
    read_checked,
    read_format,
    warn_misspelt,
    warn_no_sidecars,
)
from taskspec.v1 import problems_pb2

__all__ = ["DESCRIPTION", "add_arguments", "run"]


#: What ``taskspec fmt --help`` says the command does.
DESCRIPTION: Final = (
    "Rewrite sidecars in the canonical layout the Go package writes, keeping "
    "comments above or beside the key they belong to. Files named on the command line "
    "(- for stdin, formatted to stdout) and, below directories, every taskspec.yaml or "
    "*.taskspec.yaml (.yml too, with a warning; .json sidecars are left to validate). "
    "Files are replaced atomically; invalid files, and files with a "
    "comment that has no place in the canonical layout, are reported and left alone."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--check", action="store_true", help="change nothing; list files that would change"
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="change nothing; print a unified diff of what would change",
    )
    p.add_argument(
        "--strip-comments",
        action="store_true",
        help="drop comments and write exactly the Go package's bytes",
    )
    add_input_options(p, discovery=True)
    p.add_argument("paths", nargs="+", metavar="PATH")


def _diff(name: str, before: bytes, after: bytes) -> str:
    lines = difflib.unified_diff(
        before.decode("utf-8", "replace").splitlines(keepends=True),
        after.decode("utf-8", "replace").splitlines(keepends=True),
        f"{name}\t(original)",
        f"{name}\t(formatted)",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


#: What fmt says of an invalid file instead of its problems, which validate lists.
INVALID: Final = "cannot format: the file is invalid (taskspec validate lists its problems)"


#: The code of a file in a format the command does not take.
UNSUPPORTED_FORMAT: Final = code_of(problems_pb2.PROBLEM_CODE_UNSUPPORTED_FORMAT)
#: What each format fmt does not take is called in its refusal.
_FORMAT_NAMES: Final = {"json": "proto3 JSON", "binpb": "binary protobuf"}


def not_yaml(fmt: str) -> Violation:
    """fmt's refusal of a file in format *fmt* (not YAML): TS903, naming ``convert``."""
    message = (
        f"fmt formats YAML only, and this file is {_FORMAT_NAMES.get(fmt, fmt)}"
        " (taskspec convert --to yaml turns it into YAML)"
    )
    return Violation("", message, code=UNSUPPORTED_FORMAT)


def _crlf(data: bytes) -> bool:
    """Whether *data*'s line endings are CRLF: those of its first line, as ruff decides."""
    end = data.find(b"\n")
    return end > 0 and data[end - 1 : end] == b"\r"


def _files(count: int) -> str:
    return f"{count} file{'' if count == 1 else 's'}"


def summary(changed: int, unchanged: int, failed: int, *, check: bool) -> str:
    """The closing line: "N files reformatted, M already formatted" (``would be`` for --check)."""
    verb = "would be reformatted" if check else "reformatted"
    text = f"{_files(changed)} {verb}, {unchanged} already formatted"
    if failed:
        text += f", {failed} not formatted"
    return text


def _is_yaml(name: str) -> bool:
    """Whether fmt takes a sidecar found in a walk: a YAML one (a JSON one is passed over)."""
    return read_format(name) == "yaml"


def run(args: argparse.Namespace) -> int:
    # Imported here: only fmt needs the comment machinery.
    from taskspec.cli._comments import CommentError, format_document  # noqa: PLC0415

    report = Report(sys.stderr)
    out = sys.stdout
    changed = unchanged = written = 0
    files = 0  # named files and files found, standard input left out
    try:
        selection = Selection.build(args.include, args.exclude)
    except ConfigError as err:
        print(f"taskspec fmt: error: {err}", file=sys.stderr)
        return EXIT_USAGE

    def on_empty(directory: str) -> None:
        warn_no_sidecars(directory, selection.patterns)

    def reformat(data: bytes) -> bytes:
        # An invalid file cannot be rewritten without losing what makes it
        # invalid (an unknown enum string has no proto value), and a comment
        # without a place would be lost: it is reported and left alone.
        try:
            formatted = format_document(data, strip_comments=args.strip_comments)
        except (DecodeError, ValidationError) as err:
            first = err.violations[0] if err.violations else None
            if isinstance(err, CommentError) or first is None or not first.code:
                raise
            # One line: the problems are validate's to list.
            shown = Violation(first.field_path, INVALID, first.line, first.column, code=first.code)
            raise TaskSpecError([shown]) from None
        return formatted.replace(b"\n", b"\r\n") if _crlf(data) else formatted

    walked = walk(
        args.paths,
        selection,
        on_empty,
        force_exclude=args.force_exclude,
        ignore=not args.no_ignore,
        on_misspelt=warn_misspelt,
        accept=_is_yaml,
    )
    for item in walked:
        if isinstance(item, tuple):  # a directory the walk could not list
            path, reason = item
            report.os_error(path, reason)
            continue
        name = display_name(item, args.stdin_filename)
        files += item != STDIN
        fmt = read_format(name)
        if fmt != "yaml":  # refused unread: no stdin is waited on, no file opened
            report.problems(name, [not_yaml(fmt)])
            continue
        snapshot = None
        if item != STDIN:
            try:
                snapshot = read_snapshot(item)
            except OSError as err:
                report.os_error(name, err)
                continue
        checked = read_checked(report, item if snapshot is None else snapshot.data, name, reformat)
        if checked is None:
            continue
        data, formatted = checked
        note_block_prompt(name, data)
        if item == STDIN and not (args.check or args.diff):
            out.buffer.write(formatted)
            out.flush()
            continue
        if formatted == data:
            unchanged += item != STDIN
            continue
        changed += 1
        if args.diff:
            out.write(_diff(escape_controls(name), data, formatted))
        elif args.check:
            print(f"would reformat {escape_controls(name)}", file=out)
        if args.check or args.diff:
            continue
        try:
            replaced = atomic_write(item, formatted, expect=snapshot)
        except ChangedError:
            report.changed(name, "formatted")
            continue
        except OSError as err:
            report.os_error(name, err, "write")
            continue
        if replaced:
            written += 1
            print(f"reformatted {escape_controls(name)}", file=out)
        else:
            unchanged += 1
    if files:
        out.flush()
        dry = args.check or args.diff
        done = changed if dry else written
        print(summary(done, unchanged, files - done - unchanged, check=dry), file=sys.stderr)
    if report.failed or (args.check and changed):
        return EXIT_INVALID
    return EXIT_OK
