"""The user documentation as the tests that hold it to the code read it.

The README and the pages of ``docs/`` it links to are one text for these
tests: a code block, a terminal session or a claim is checked wherever it
stands, so that moving text between pages neither loses a check nor needs
one rewritten. ``docs/problems.md`` (the catalogue's design) is not among
them: it shows no code to run.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The pages, README first, then docs/ in the order the README lists them.
PAGES = (
    "README.md",
    "docs/python.md",
    "docs/go.md",
    "docs/grpc.md",
    "docs/cli.md",
    "docs/editors.md",
    "docs/contract.md",
    "docs/development.md",
)

#: Each page's text, by its path from the repository's root.
TEXTS = {page: (ROOT / page).read_text(encoding="utf-8") for page in PAGES}

#: README.md alone.
README = TEXTS["README.md"]

#: Every page, one after another.
ALL = "\n".join(TEXTS.values())


def blocks(language: str, text: str = ALL) -> list[str]:
    """The fenced code blocks of *language* in *text* (every page by default), in order."""
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def page(name: str) -> str:
    """One page's text, by its path (``docs/editors.md``)."""
    return TEXTS[name]


def section(heading: str) -> str:
    """The text under the one heading *heading* (``## Formats``), to the next heading of its level.

    Exactly one page holds the heading; the text stops at the next heading
    of the same or a higher level outside a code block.
    """
    level = len(heading) - len(heading.lstrip("#"))
    found = [text for text in TEXTS.values() if f"\n{heading}\n" in f"\n{text}"]
    assert len(found) == 1, f"{heading!r} heads {len(found)} sections, not 1"
    lines = f"\n{found[0]}".split(f"\n{heading}\n", 1)[1].splitlines(keepends=True)
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(rf"#{{1,{level}}} ", line):
            return "".join(lines[:i])
    return "".join(lines)
