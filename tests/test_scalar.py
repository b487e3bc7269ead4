"""Tests for the scalar analysis and the one style selection (taskspec.bridge._scalar).

The style table (``tests/data/emit/styles.json``) was recorded from go
yaml.v3 v3.0.4: the style ``yaml.Marshal`` writes each string in as a block
value, a block map key, a flow sequence item and a flow map key, read off
the first byte of the scalar. The table is checked against the live Go
side on every run where Go is present (the conformance consumer's
``styles`` op), so it cannot drift from yaml.v3. The writer's bytes in
context are tested in ``tests/test_emit.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

from taskspec.bridge import _scalar
from taskspec.bridge._scalar import Style, analyze, is_simple_key, select_style
from tests.conformance.gobridge import GoConsumer

DATA: Final = Path(__file__).resolve().parent / "data" / "emit"

_CASES: Final[list[dict[str, Any]]] = json.loads(
    (DATA / "styles.json").read_text(encoding="ascii")
)["cases"]
#: (text, context, simple key or None, style): the style yaml.v3 picks.
STYLES: Final = [(c["text"], c["context"], c.get("simple_key"), Style(c["style"])) for c in _CASES]


# --- analysis and style selection -------------------------------------------------


def _style_id(case: tuple[str, str, bool | None, Style]) -> str:
    return f"{case[1]}:{ascii(case[0])[:40]}"


@pytest.mark.parametrize(("text", "context", "simple", "style"), STYLES, ids=map(_style_id, STYLES))
def test_style_selection_matches_yaml_v3(
    text: str, context: str, simple: bool | None, style: Style
) -> None:
    facts = analyze(text)
    key = context in ("key", "flow_key")
    assert (is_simple_key(text, facts) if key else None) == simple
    assert select_style(facts, simple_key=bool(simple), flow=context.startswith("flow")) is style


def test_style_table_is_what_yaml_v3_writes_today(go: GoConsumer) -> None:
    """Every record of the table, asked of the real yaml.v3 again."""
    texts = list(dict.fromkeys(c["text"] for c in _CASES))
    res = go.request(op="styles", texts=texts)
    assert res["ok"], res
    live = {(r["text"], r["context"]): (r["style"], r.get("simple_key")) for r in res["styles"]}
    assert len(live) == len(_CASES)
    for c in _CASES:
        assert live[(c["text"], c["context"])] == (
            c.get("go_style", c["style"]),
            c.get("simple_key"),
        ), c


def test_only_the_merge_key_fix_differs_from_go() -> None:
    differing = {(c["text"], c["context"], c["go_style"]) for c in _CASES if "go_style" in c}
    assert differing == {("<<", "key", "plain"), ("<<", "flow_key", "plain")}
    assert "merge-key" in _scalar.ROUND_TRIP_FIXES


def test_style_table_covers_every_style_and_context() -> None:
    assert {case[3] for case in STYLES} == set(Style)
    assert {case[1] for case in STYLES} == {"value", "key", "flow", "flow_key"}
    assert {case[2] for case in STYLES if case[1] == "key"} == {True, False}


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("", _scalar.EMPTY | _scalar.NOT_A_STRING),
        ("plain text", 0),
        ("a,b", _scalar.FLOW_INDICATORS),
        ("a:b", _scalar.FLOW_INDICATORS),
        ("a: b", _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        ("a:", _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        ("a#b", 0),
        ("a #b", _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        ("?a", _scalar.FLOW_INDICATORS),
        ("- a", _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        ("-a", 0),
        ("---a", _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        (" a ", _scalar.LEADING_SPACE | _scalar.TRAILING_SPACE),
        ("a\tb", _scalar.TAB_CHARACTERS),
        ("a:\tb", _scalar.TAB_CHARACTERS | _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS),
        (
            "a\n#b",
            _scalar.LINE_BREAKS | _scalar.LF | _scalar.FLOW_INDICATORS | _scalar.BLOCK_INDICATORS,
        ),
        (
            "\na \n b\n",
            _scalar.LINE_BREAKS
            | _scalar.LF
            | _scalar.LEADING_BREAK
            | _scalar.TRAILING_BREAK
            | _scalar.SPACE_BREAK
            | _scalar.BREAK_SPACE,
        ),
        ("a\u2028b", _scalar.LINE_BREAKS),
        ("a\rb", _scalar.LINE_BREAKS | _scalar.SPECIAL_CHARACTERS),
        (
            "\x85",
            _scalar.LINE_BREAKS
            | _scalar.LEADING_BREAK
            | _scalar.TRAILING_BREAK
            | _scalar.SPECIAL_CHARACTERS,
        ),
        ("\ufeffa", _scalar.SPECIAL_CHARACTERS),
        ("\U0001f642", _scalar.SPECIAL_CHARACTERS),
        ("\xa0", 0),
        ("yes", _scalar.NOT_A_STRING),
        ("1:20", _scalar.NOT_A_STRING | _scalar.FLOW_INDICATORS),
        ("<<", _scalar.MERGE_KEY),
    ],
)
def test_analysis_records_yaml_v3_facts(text: str, facts: int) -> None:
    assert analyze(text) == facts


def test_keys_are_simple_up_to_128_utf8_bytes_on_one_line() -> None:
    for text, simple in [
        ("x" * 128, True),
        ("x" * 129, False),
        ("\xe9" * 64, True),
        ("\xe9" * 65, False),
        ("a\u2028b", False),
        ("a\tb", True),
    ]:
        assert is_simple_key(text, analyze(text)) is simple, text
