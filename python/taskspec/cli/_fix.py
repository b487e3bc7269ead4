"""``taskspec validate --fix``: each problem's fix written into its file, before the check.

A problem that has one safe fix carries it (:class:`taskspec.Fix`: a
misspelt key or enum value, a value that must be quoted). With ``--fix``,
validate first writes those fixes into each YAML file it would check, with
:func:`taskspec.apply_fixes`, which changes the fixed spans and nothing
else: comments, CRLF line endings and layout stay as they were. A fix can
let a problem it hid be found (a misspelt key's enum, once the key is
right), so a file is fixed again, a few rounds at most, until nothing more
changes. Files are replaced atomically, and only if they still hold what
was read (:func:`taskspec._io.atomic_write`). Then the check runs as
without ``--fix``, and reports what is left. Standard input and JSON or
binary files are checked, not fixed.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from taskspec._check import check
from taskspec._fixes import apply_fixes
from taskspec._io import ChangedError, atomic_write, read_snapshot
from taskspec.cli._discover import Selection, walk
from taskspec.cli._kit import STDIN, escape_controls, read_format, warning

__all__ = ["ROUNDS", "add_fix_argument", "fix_files"]

#: The most times a file is fixed and checked again: each round can only
#: write fixes for problems the last one's fixes let be found.
ROUNDS = 4


def add_fix_argument(p: argparse.ArgumentParser) -> None:
    """The ``--fix`` option of ``taskspec validate``."""
    p.add_argument(
        "--fix",
        action="store_true",
        help="first write each problem's one safe fix (a misspelt key or enum value, a value "
        "that must be quoted) into the YAML files, keeping comments, line endings and "
        "layout; files are replaced atomically; then report what is left",
    )


def fixed_text(data: bytes) -> bytes | None:
    """*data*, a YAML document, with its problems' fixes written in, or None when none apply."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    start = text
    for _ in range(ROUNDS):
        after = apply_fixes(text, check(text))
        if after == text:
            break
        text = after
    return None if text == start else text.encode("utf-8")


def fix_files(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Write the fixes into every YAML file *args* names or finds; the number of files fixed.

    A file that cannot be read is left to the check to report; one that
    cannot be written, or that changed while it was fixed, gets a warning
    on *out* (stderr) and is checked as it is.
    """
    out = sys.stderr if out is None else out
    selection = Selection.build(args.include, args.exclude)
    fixed = 0
    for item in walk(
        args.paths, selection, force_exclude=args.force_exclude, ignore=not args.no_ignore
    ):
        if not isinstance(item, str) or item == STDIN or read_format(item) != "yaml":
            continue
        try:
            snapshot = read_snapshot(item)
        except OSError:
            continue  # the check reports it
        data = fixed_text(snapshot.data)
        if data is None:
            continue
        name = escape_controls(item)
        try:
            if atomic_write(item, data, expect=snapshot):
                fixed += 1
                out.write(f"fixed {name}\n")
        except ChangedError:
            out.write(warning(f"{item}: changed while being fixed; left alone (run again)"))
        except OSError as err:
            out.write(warning(f"{item}: cannot write the fixes: {err.strerror or err}"))
    return fixed
