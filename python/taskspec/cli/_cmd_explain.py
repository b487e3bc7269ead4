"""``taskspec explain CODE``: what a problem's code means, and how to fix it.

Every problem the command line, the libraries and the GeneratorService
report carries a code of the catalogue (``proto/taskspec/v1/problems.proto``,
read by :mod:`taskspec._codes`). A person who meets one in CI or an editor
asks the command what it means, as ``ruff rule F401`` answers for a lint:
its title, severity and stage, its explanation (wrapped at 79 columns),
every form of its message and hint, and an example with its fix. ``--all``
(or no code) lists every code with its severity and title, one a line.
Nothing here is written out by hand: the catalogue is the one home of these
words.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Final

from taskspec._codes import CATALOGUE, explain
from taskspec.bridge._gostr import go_quote
from taskspec.cli._kit import EXIT_OK

__all__ = ["DESCRIPTION", "WIDTH", "add_arguments", "code", "explanation", "listing", "run"]

#: The column the explanation paragraph is wrapped at, as a terminal shows it.
WIDTH: Final = 79

#: What ``taskspec explain --help`` says the command does.
DESCRIPTION: Final = (
    "Print what a problem's code (TS001 ...) means: its title, severity, explanation, "
    "messages and hints, and an example with its fix. With --all, or no code, list every "
    "code with its severity and title."
)


def code(text: str) -> str:
    """An argparse type: *text* as a code of the catalogue (any case), or a usage error.

    The error names the range of codes there are and where to see them, so
    a mistyped code is answered as any other mistyped argument is: with the
    usage line and status 2.
    """
    wanted = text.strip().upper()
    if wanted not in CATALOGUE:
        first, *_, last = CATALOGUE
        raise argparse.ArgumentTypeError(
            f"unknown code {go_quote(text)}: the codes run from {first} to {last} "
            "(taskspec explain --all lists them)"
        )
    return wanted


def add_arguments(p: argparse.ArgumentParser) -> None:
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--all", action="store_true", help="list every code with its severity and title"
    )
    which.add_argument(
        "code", nargs="?", type=code, metavar="CODE", help="a problem's code, such as TS011"
    )


def listing() -> str:
    """Every code of the catalogue, one a line: code, severity and title, in columns."""
    width = max(len(kind.severity) for kind in CATALOGUE.values())
    return "".join(
        f"{kind.code}  {kind.severity:<{width}}  {kind.title}\n" for kind in CATALOGUE.values()
    )


def explanation(code: str) -> str:
    """:func:`taskspec._codes.explain` of *code*, its explanation paragraph wrapped at WIDTH.

    The catalogue holds each explanation as one line, and ``explain`` (as
    Go's ``Explain``, which must give the same text) returns it so, for a
    program to wrap as it needs. A terminal does not wrap at word breaks,
    so the command does. Messages, hints and examples are left as they are:
    they are matched and copied as written.
    """
    text = explain(code)
    paragraph = CATALOGUE[code].explanation
    wrapped = textwrap.fill(paragraph, WIDTH, break_long_words=False, break_on_hyphens=False)
    return text.replace(f"\n\n{paragraph}\n\n", f"\n\n{wrapped}\n\n", 1)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(listing() if args.all or args.code is None else explanation(args.code))
    return EXIT_OK
