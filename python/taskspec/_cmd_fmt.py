"""``taskspec fmt [--check] PATH...``: rewrite sidecars in canonical form.

The output is the canonical YAML the Go package writes, so comments are
dropped, with one exception: a ``# yaml-language-server: $schema=...``
modeline before the document's content is kept as the first line. It is how
editors find the JSON Schema of the file, and it says nothing about the
spec, so it is not part of what "canonical" compares: a file is canonical
when it is its modeline (if any) followed by the canonical bytes.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from taskspec._api import marshal_yaml, parse_task_spec
from taskspec._clikit import EXIT_INVALID, EXIT_OK, Report, expand, read
from taskspec._errors import TaskSpecError
from taskspec._io import atomic_write

__all__ = ["modeline", "register"]

_BOM = b"\xef\xbb\xbf"
# One line and its ending; YAML ends lines with LF, CRLF or a lone CR.
_LINE = re.compile(rb"([^\r\n]*)(?:\r\n|\r|\n|$)")
# The comment the YAML language server (and editors built on it) reads.
_MODELINE = re.compile(rb"#[ \t]*yaml-language-server[ \t]*:")


def modeline(data: bytes) -> bytes:
    """The first modeline among the comments that open *data*, as one LF-ended line.

    Only the comment block before the document's content is searched, so
    the modeline stays where editors look for it. Surrounding blanks and the
    line ending are normalised; the text in between is kept as written.
    Returns ``b""`` when there is none.
    """
    start = len(_BOM) if data.startswith(_BOM) else 0
    for match in _LINE.finditer(data, start):
        line = match.group(1).strip(b" \t")
        if line.startswith(b"#"):
            if _MODELINE.match(line):
                return line + b"\n"
        elif line:
            break
    return b""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fmt",
        help="rewrite sidecars in canonical form",
        description="Rewrite files in the canonical form the Go package writes. "
        "Files are replaced atomically; invalid files are reported and left alone. "
        "Comments are dropped, except a leading '# yaml-language-server:' modeline, "
        "which is kept as the first line.",
    )
    p.add_argument(
        "--check", action="store_true", help="change nothing; list files that would change"
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = Report(sys.stderr)
    changed = 0
    for path in expand(args.paths, report):
        data = read(path, report)
        if data is None:
            continue
        try:
            canonical = modeline(data) + marshal_yaml(parse_task_spec(data))
        except TaskSpecError as err:
            # An invalid file cannot be rewritten without losing what makes it
            # invalid (an unknown enum string has no proto value), so it is
            # reported and left exactly as it is.
            report.error(path, err)
            continue
        if canonical == data:
            continue
        changed += 1
        if args.check:
            print(path)
            continue
        try:
            atomic_write(path, canonical)
        except OSError as err:
            report.os_error(path, err, "write")
            continue
        print(f"reformatted {path}")
    if report.failed or (args.check and changed):
        return EXIT_INVALID
    return EXIT_OK
