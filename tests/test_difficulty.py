"""derive_difficulty: every band boundary of every signal, the hardest band winning, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import taskspec
from taskspec import Difficulty, TaskSpecError, derive_difficulty
from taskspec._difficulty import SIGNAL_BANDS
from tests.helpers import valid_spec

ROOT = Path(__file__).resolve().parent.parent
EASY, MEDIUM, HARD = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD

#: The rubric and its cases, shared with the Go library's tests
#: (go/contract_tables_test.go), so that one file proves both say the same.
TABLE: dict[str, Any] = json.loads((ROOT / "tests" / "contract" / "difficulty.json").read_text())


def test_the_rubric_is_the_shared_table() -> None:
    rows = {row.key: row for row in SIGNAL_BANDS}
    assert [row["signal"] for row in TABLE["rubric"]] == [
        "involved_symbols",
        "edge_count",
        "cyclomatic_complexity",
    ]
    for want in TABLE["rubric"]:
        row = rows.pop(want["signal"])
        assert (row.argument, row.minimum, row.easy_max, row.medium_max, row.message) == (
            want["input"],
            want["minimum"],
            want["easy_max"],
            want["medium_max"],
            want["message"],
        )
        # Below its minimum, a value breaks the catalogue's "integer below
        # its minimum", the Go library's code too (go/contract_tables_test.go).
        assert want["code"] == taskspec.Code.AT_LEAST.value == "TS104"
    assert not rows


@pytest.mark.parametrize(
    "case",
    TABLE["cases"],
    ids=lambda c: f"{c['node_count']}-{c['edge_count']}-{c['cyclomatic']}",
)
def test_derive_difficulty_follows_the_shared_table(case: dict[str, Any]) -> None:
    args = (case["node_count"], case["edge_count"], case["cyclomatic"])
    if case["violations"]:
        with pytest.raises(taskspec.ValidationError) as info:
            derive_difficulty(*args)
        got = [
            {"path": v.field_path, "message": v.message, "code": v.code}
            for v in info.value.violations
        ]
        assert got == case["violations"]
        more = len(got) - 1
        tail = f" (and {more} more problem{'s' * (more > 1)})" if more else ""
        assert str(info.value) == case["violations"][0]["message"] + tail
        return
    band, signals = derive_difficulty(*args)
    assert band.value == case["band"]
    assert signals == case["signals"]


@pytest.mark.parametrize(
    ("nodes", "edges", "cyclomatic", "band"),
    [
        # Each signal alone, the others at their minimum: the lowest value,
        # each threshold and threshold + 1.
        (1, 0, 1, EASY),
        (3, 0, 1, EASY),
        (4, 0, 1, MEDIUM),
        (10, 0, 1, MEDIUM),
        (11, 0, 1, HARD),
        (1, 4, 1, EASY),
        (1, 5, 1, MEDIUM),
        (1, 12, 1, MEDIUM),
        (1, 13, 1, HARD),
        (1, 0, 3, EASY),
        (1, 0, 4, MEDIUM),
        (1, 0, 7, MEDIUM),
        (1, 0, 8, HARD),
        # Every signal at the top of a band together stays in that band.
        (3, 4, 3, EASY),
        (10, 12, 7, MEDIUM),
        # Mixes: the hardest band wins, whichever signal carries it.
        (4, 4, 3, MEDIUM),
        (3, 5, 3, MEDIUM),
        (3, 4, 4, MEDIUM),
        (11, 0, 1, HARD),
        (10, 13, 7, HARD),
        (10, 12, 8, HARD),
        (1, 0, 8, HARD),
        (4, 13, 1, HARD),
        (11, 5, 4, HARD),
        (2**63 - 1, 2**63 - 1, 2**63 - 1, HARD),
    ],
)
def test_bands(nodes: int, edges: int, cyclomatic: int, band: Difficulty) -> None:
    got, signals = derive_difficulty(nodes, edges, cyclomatic)
    assert got is band
    assert signals == {
        "cyclomatic_complexity": cyclomatic,
        "edge_count": edges,
        "involved_symbols": nodes,
    }


def test_signals_are_plain_ints_in_signal_key_order() -> None:
    _, signals = derive_difficulty(node_count=6, edge_count=9, cyclomatic=4)
    spec = valid_spec()
    spec.difficulty_signals.clear()
    spec.difficulty_signals.update(signals)
    assert list(signals) == taskspec.signal_keys(spec)
    assert all(type(v) is int for v in signals.values())


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_examples_follow_the_rubric(path: Path) -> None:
    spec = taskspec.load(path)
    s = spec.difficulty_signals
    band, signals = derive_difficulty(
        s["involved_symbols"], s["edge_count"], s["cyclomatic_complexity"]
    )
    assert band.to_proto() == spec.difficulty
    assert signals == dict(s)


_counts = st.tuples(st.integers(1, 2**63 - 1), st.integers(0, 2**63 - 1), st.integers(1, 2**63 - 1))
_ORDER = [EASY, MEDIUM, HARD]


@given(_counts, st.integers(0, 2), st.integers(0, 100))
def test_more_of_any_signal_never_lowers_the_band(
    counts: tuple[int, int, int], which: int, extra: int
) -> None:
    bigger = list(counts)
    bigger[which] = min(bigger[which] + extra, 2**63 - 1)
    before, _ = derive_difficulty(*counts)
    after, _ = derive_difficulty(*bigger)
    assert _ORDER.index(after) >= _ORDER.index(before)


@pytest.mark.parametrize(
    ("args", "path", "message"),
    [
        (
            (0, 0, 1),
            "difficulty_signals.involved_symbols",
            "difficulty node count must be at least 1 (the seed itself), got 0",
        ),
        (
            (1, -1, 1),
            "difficulty_signals.edge_count",
            "difficulty edge count must be non-negative, got -1",
        ),
        (
            (1, 0, 0),
            "difficulty_signals.cyclomatic_complexity",
            "difficulty cyclomatic proxy must be at least 1, got 0",
        ),
        (
            (True, 0, 1),
            "difficulty_signals.involved_symbols",
            "node_count must be an int, got bool",
        ),
        ((1, False, 1), "difficulty_signals.edge_count", "edge_count must be an int, got bool"),
        (
            (1, 0, 2.0),
            "difficulty_signals.cyclomatic_complexity",
            "cyclomatic must be an int, got float",
        ),
        ((1, "3", 1), "difficulty_signals.edge_count", "edge_count must be an int, got str"),
        (
            (None, 0, 1),
            "difficulty_signals.involved_symbols",
            "node_count must be an int, got NoneType",
        ),
        (
            (2**63, 0, 1),
            "difficulty_signals.involved_symbols",
            "node_count must fit in int64, got 9223372036854775808",
        ),
    ],
)
def test_bad_input(args: tuple[object, object, object], path: str, message: str) -> None:
    with pytest.raises(TaskSpecError) as info:
        derive_difficulty(*args)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert [(v.field_path, v.message) for v in info.value.violations] == [(path, message)]
    assert str(info.value) == message
    # Below the minimum: the shared table's code; not an int: a value of the
    # wrong type; past int64: above the field's maximum.
    if "must be an int" in message:
        want = taskspec.Code.WRONG_TYPE
    elif "int64" in message:
        want = taskspec.Code.AT_MOST
    else:
        want = taskspec.Code.AT_LEAST
    assert [v.code for v in info.value.violations] == [want]


def test_every_bad_argument_is_reported_at_once() -> None:
    with pytest.raises(TaskSpecError) as info:
        derive_difficulty(0, True, -3)
    assert [v.message for v in info.value.violations] == [
        "difficulty node count must be at least 1 (the seed itself), got 0",
        "edge_count must be an int, got bool",
        "difficulty cyclomatic proxy must be at least 1, got -3",
    ]
    assert (
        str(info.value)
        == "difficulty node count must be at least 1 (the seed itself), got 0 (and 2 more problems)"
    )
