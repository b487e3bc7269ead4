"""``taskspec lsp``: the Language Server Protocol server, over standard input and output.

It needs the ``lsp`` extra (pygls); without it the command says how to get
it and exits 2. The server itself is :mod:`taskspec.cli._lsp`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Final

from taskspec.cli import frozen_imports

__all__ = ["DESCRIPTION", "add_arguments", "run"]

#: What ``taskspec lsp --help`` says the command does.
DESCRIPTION: Final = (
    "Run a Language Server Protocol server over stdin and stdout, for editors: the "
    "problems taskspec validate reports as diagnostics, quick fixes from their hints, "
    "formatting as taskspec fmt does it, and each field's documentation on hover. "
    'Needs the lsp extra: pip install "taskspec[lsp]".'
)

#: What the command says when pygls is not installed.
MISSING: Final = (
    'taskspec lsp: error: the language server needs the lsp extra: pip install "taskspec[lsp]"'
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--stdio",
        action="store_true",
        help="talk over stdin and stdout (the default and only transport; accepted for editors)",
    )


def run(args: argparse.Namespace) -> int:
    # The engine, which ``_kit`` brings, is imported after the server has
    # answered ``initialize`` (see ``_lsp``); so are the exit codes.
    try:
        with frozen_imports():
            from taskspec.cli._lsp import serve  # noqa: PLC0415 - pygls only for this command
    except ImportError as err:
        if err.name not in ("pygls", "lsprotocol", "cattrs", "attrs") and not str(
            err.name or ""
        ).startswith(("pygls.", "lsprotocol.")):
            raise
        from taskspec.cli._kit import EXIT_USAGE  # noqa: PLC0415

        print(MISSING, file=sys.stderr)
        return EXIT_USAGE
    serve()
    if sys.stdout.closed:  # the server closes its streams when the client ends it
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the exit
    from taskspec.cli._kit import EXIT_OK  # noqa: PLC0415

    return EXIT_OK
