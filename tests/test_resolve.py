"""Tests for yaml.v3's resolver as reproduced by taskspec.bridge._resolve.

The table (``tests/data/emit/resolve.json``) was recorded from yaml.v3
v3.0.4: ``resolve("", text)`` gives the tag and value, and the encoder's
quoting test (``needs_quotes``) whether ``yaml.Marshal`` refuses to write
the text plain. The writer relies on the second, the decoder on the first.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Final

import pytest

from taskspec.bridge._resolve import needs_quotes, resolve

DATA: Final = Path(__file__).resolve().parent / "data" / "emit"

#: (text, tag, value, needs_quotes). Floats are Python floats (or
#: "inf"/"-inf"/"nan"). "<<" is the one deliberate difference: see
#: test_merge_key_resolution.
RESOLVE: Final[list[tuple[str, str, object, bool]]] = [
    (c["text"], c["tag"], c["value"], c["quoted"])
    for c in json.loads((DATA / "resolve.json").read_text(encoding="ascii"))["cases"]
]


def test_table_is_complete() -> None:
    assert len(RESOLVE) == 161
    tags = {tag for _, tag, _, _ in RESOLVE}
    assert tags == {"!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!str"}


@pytest.mark.parametrize(("text", "tag", "value", "quoted"), RESOLVE)
def test_resolve_matches_yaml_v3(text: str, tag: str, value: object, quoted: bool) -> None:
    got_tag, got = resolve(text)
    assert got_tag == tag
    if tag == "!!float" and isinstance(value, str):
        assert isinstance(got, float)
        assert math.isnan(got) if value == "nan" else got == float(value)
    else:
        assert got == value
        assert type(got) is type(value)
    assert needs_quotes(text) is quoted


def test_merge_key_resolution() -> None:
    # yaml.v3's resolver says string (no hint for '<'), but its parser tags a
    # plain "<<" as a merge key; resolve() reports that, the encoder does not.
    assert resolve("<<") == ("!!merge", "<<")
    assert not needs_quotes("<<")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("9223372036854775807", 2**63 - 1),
        ("-9223372036854775808", -(2**63)),
        ("18446744073709551615", 2**64 - 1),
        ("0xFFFF_FFFF_FFFF_FFFF", 2**64 - 1),
        ("0b1_0", 2),
        ("-0o1_7", -15),
        ("010", 8),
    ],
)
def test_resolve_integers_keep_full_range(text: str, value: int) -> None:
    assert resolve(text) == ("!!int", value)
