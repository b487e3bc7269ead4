"""Write the members of ``taskspec.Code`` from the catalogue.

``python/taskspec/_problem_code.py`` lists every code of the catalogue as a
member of :class:`taskspec.Code`, so that type checkers know
``Code.UNKNOWN_KEY``. Those lines are generated between ``# generated
members: codes`` and ``# end of generated members``: ``NAME = "TSnnn"``
under a ``#:`` comment with the code's title, the name the ProblemCode
value's without its prefix, or the constraint's (``taskspec._codes.Kind``'s
``name``) in capitals. ``make generate`` runs it; ``--check`` fails when the
file is out of date, as ``make checkgenerate`` does for the stubs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from scripts.gen_enums import rewrite
from taskspec._codes import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "python" / "taskspec" / "_problem_code.py"
_BLOCK = re.compile(
    r"(?P<head>^(?P<indent>[ ]*)# generated members: codes\n)"
    r"(?P<body>.*?)"
    r"(?P<tail>^[ ]*# end of generated members\n)",
    re.MULTILINE | re.DOTALL,
)


def members(indent: str) -> str:
    """Every code of the catalogue as a member, in code order."""
    return "".join(
        f'{indent}#: {kind.title}\n{indent}{kind.name.upper()} = "{code}"\n'
        for code, kind in CATALOGUE.items()
    )


def render(text: str) -> str:
    """*text* with its block of members rewritten from the catalogue."""
    new, count = _BLOCK.subn(lambda m: m["head"] + members(m["indent"]) + m["tail"], text)
    if count != 1:
        raise SystemExit(f"{TARGET}: expected one block of generated members, found {count}")
    return new


def main(argv: list[str] | None = None) -> int:
    return rewrite(argv, TARGET, render, "the members of Code")


if __name__ == "__main__":
    sys.exit(main())
