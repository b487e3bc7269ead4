"""Write the members of taskspec's Python enums from the proto enum descriptors.

``python/taskspec/_enums.py`` lists each enum's members in its class body, so
that type checkers know ``Language.GO``. Those lines are generated: each
class body holds a block between ``# generated members: <proto enum>`` and
``# end of generated members``, which this script rewrites from the
descriptors: ``NAME = number, "spelling"``, where the name is the value
name after the enum's prefix, the number the proto number and the spelling
the YAML one. ``make generate`` runs it, so an enum value
added to the proto needs no hand edit; ``--check`` fails when the file is
out of date, as ``make checkgenerate`` does for the stubs.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "python" / "taskspec" / "_enums.py"
_BLOCK = re.compile(
    r"(?P<head>^(?P<indent>[ ]*)# generated members: (?P<enum>\S+)\n)"
    r"(?P<body>.*?)"
    r"(?P<tail>^[ ]*# end of generated members\n)",
    re.MULTILINE | re.DOTALL,
)


def _members(full_name: str, indent: str) -> str:
    desc = taskspec_pb2.DESCRIPTOR.enum_types_by_name[full_name.rsplit(".", 1)[1]]
    info = _layout.enum_info(desc)
    lines = []
    for value in sorted(desc.values, key=lambda v: v.number):
        spelled = info.to_string[value.number]
        if spelled:
            lines.append(f'{indent}{spelled.upper()} = {value.number}, "{spelled}"\n')
    return "".join(lines)


def render(text: str) -> str:
    """*text* with every generated block rewritten from the descriptors."""

    def block(match: re.Match[str]) -> str:
        body = _members(match["enum"], match["indent"])
        return match["head"] + body + match["tail"]

    return _BLOCK.sub(block, text)


def rewrite(argv: list[str] | None, target: Path, render: Callable[[str], str], what: str) -> int:
    """The command line of a script that rewrites generated blocks of a hand-written file.

    Without arguments, *target* gets ``render(text)``; with ``--check``
    (``make checkgenerate``) it is left alone, and the status is 1, naming
    *what* is out of date, when it differs.
    """
    parser = argparse.ArgumentParser(description=f"Rewrite the {what} in {target.name}.")
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args(argv)
    text = target.read_text()
    new = render(text)
    if args.check:
        if new != text:
            print(f"{what} out of date: {target} (run 'make generate')")
            return 1
        return 0
    if new != text:
        target.write_text(new)
    return 0


def main(argv: list[str] | None = None) -> int:
    return rewrite(argv, TARGET, render, "generated enum members")


if __name__ == "__main__":
    sys.exit(main())
