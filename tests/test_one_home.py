"""One home for each bridge fact: a fact the reader, writer and checks share is written once.

The line breaks of YAML 1.1 live in ``taskspec.bridge._breaks``; a module that
spells the set out again would drift from it the day one of them changes.
"""

from __future__ import annotations

import re
from pathlib import Path

import taskspec
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS

PACKAGE = Path(taskspec.__file__).parent
HOME = PACKAGE / "bridge" / "_breaks.py"

#: The break set as source spells it, in any order of NEL, LS and PS after CR LF.
_SPELT = re.compile(r"\\r\\n(?:\\x85|\\u2028|\\u2029){3}")


def _sources() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "v1" not in p.relative_to(PACKAGE).parts]


def test_the_break_set_is_spelt_out_only_in_its_home() -> None:
    elsewhere = [
        str(p.relative_to(PACKAGE))
        for p in _sources()
        if p != HOME and _SPELT.search(p.read_text(encoding="utf-8"))
    ]
    assert elsewhere == []
    assert _SPELT.search(HOME.read_text(encoding="utf-8"))


def test_the_break_set_is_yaml_1_1s() -> None:
    assert sorted(LINE_ENDS) == sorted("\n\r\x85\u2028\u2029")
    text = "a\r\nb\rc\nd\x85e\u2028f\u2029g"
    assert LINE_BREAK.split(text) == list("abcdefg")
