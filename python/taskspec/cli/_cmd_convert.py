"""``taskspec convert --to FORMAT [--from FORMAT] [FILE|-]``: change a spec's encoding.

It reads one spec (stdin by default), validates it and writes it to stdout
in canonical YAML, proto3 JSON or binary protobuf, so it composes in pipes
(``... | taskspec convert --to binpb | ...``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from taskspec._api import convert
from taskspec._format import Format, format_for_path
from taskspec._forms_gen import REASON_UNSUPPORTED_FORMAT_NO_EXTENSION
from taskspec._words import render
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    Report,
    add_input_options,
    display_name,
    read_checked,
    read_format,
)

__all__ = ["DESCRIPTION", "add_arguments", "run"]

_FORMATS = [f.value for f in Format]


#: What ``taskspec convert --help`` says the command does.
DESCRIPTION: Final = (
    "Read one spec (a file, or stdin when FILE is - or absent), validate it "
    "and write it to stdout in another format. Without --from, the format is "
    "guessed from the file extension (.yaml/.yml, .json, .binpb/.pb); stdin "
    "is read as YAML, or by the extension of --stdin-filename. Binary output is "
    "refused when stdout is a terminal."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--to", required=True, choices=_FORMATS, help="output format")
    p.add_argument(
        "--from",
        dest="source",
        choices=_FORMATS,
        help="input format (default: from the file extension; for stdin, from "
        "--stdin-filename's, else yaml)",
    )
    add_input_options(p, discovery=False)
    p.add_argument("path", nargs="?", default="-", metavar="FILE")


def _usage(message: str) -> int:
    print(f"taskspec convert: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    target = Format(args.to)
    stdin = args.path == STDIN
    if args.source is not None:
        source = Format(args.source)
    elif stdin:
        source = Format(read_format(args.stdin_filename or STDIN))
    else:
        guessed = format_for_path(args.path)
        if guessed is None:
            reason = render(REASON_UNSUPPORTED_FORMAT_NO_EXTENSION, name=args.path)
            return _usage(f"{reason}; use --from")
        source = guessed
    # Checked before reading, so that a refused command never waits on stdin.
    if target is Format.BINPB and sys.stdout.isatty():
        return _usage("refusing to write binary protobuf to a terminal; redirect stdout")

    name = display_name(args.path, args.stdin_filename)
    checked = read_checked(
        Report(sys.stderr), args.path, name, lambda data: convert(data, source, target)
    )
    if checked is None:
        return EXIT_INVALID
    _, out = checked
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    return EXIT_OK
